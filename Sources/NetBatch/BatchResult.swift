import Foundation
import NetCore

/// The outcome of one batch item.
public struct BatchItemResult<Target: TargetType>: Sendable {
    /// The item's position in the input.
    public let index: Int
    /// The target, for target items; `nil` for ``BatchItem/operation(_:)`` items.
    public let target: Target?
    /// The final response, or the error of the last attempt.
    public let result: Result<Response, NetworkError>
    /// How many times the batch sent the item (0 when it was cancelled before it started).
    /// Retries a provider's plugins make inside one send are not counted here.
    public let attempts: Int
    /// Whether the item was cancelled: by the calling task, by ``BatchConfiguration/failFast``,
    /// or before it ever started. Its result is then ``/NetCore/NetworkError/cancelled``.
    public let wasCancelled: Bool

    /// Creates an item result.
    package init(index: Int, target: Target?, result: Result<Response, NetworkError>, attempts: Int, wasCancelled: Bool) {
        self.index = index
        self.target = target
        self.result = result
        self.attempts = attempts
        self.wasCancelled = wasCancelled
    }

    /// The response, when the item succeeded.
    public var response: Response? { try? result.get() }

    /// The error, when the item failed.
    public var error: NetworkError? {
        if case .failure(let error) = result { return error }
        return nil
    }

    /// Whether the item succeeded.
    public var succeeded: Bool {
        if case .success = result { return true }
        return false
    }
}

/// Counts of a finished batch.
public struct BatchSummary: Sendable, Hashable, CustomStringConvertible {
    /// The number of items.
    public var total: Int
    /// Items that succeeded.
    public var succeeded: Int
    /// Items that failed (not counting cancelled ones).
    public var failed: Int
    /// Items that were cancelled, before or while running.
    public var cancelled: Int
    /// How many rounds ran (more than 1 only with ``RetryTiming/afterBatch``).
    public var rounds: Int

    /// Creates a summary.
    package init(total: Int, succeeded: Int, failed: Int, cancelled: Int, rounds: Int) {
        self.total = total
        self.succeeded = succeeded
        self.failed = failed
        self.cancelled = cancelled
        self.rounds = rounds
    }

    public var description: String {
        "\(total) items: \(succeeded) succeeded, \(failed) failed, \(cancelled) cancelled in \(rounds) round(s)"
    }
}

/// Every item's outcome, in input order (`result[i]` is input `i`).
public struct BatchResult<Target: TargetType>: Sendable, RandomAccessCollection {
    /// One entry per input item, in input order.
    package let items: [BatchItemResult<Target>]
    /// How many rounds ran.
    public let rounds: Int
    let decoder: JSONDecoder

    init(items: [BatchItemResult<Target>], rounds: Int, decoder: JSONDecoder) {
        self.items = items
        self.rounds = rounds
        self.decoder = decoder
    }

    /// 0.
    public var startIndex: Int { items.startIndex }
    /// The number of items.
    public var endIndex: Int { items.endIndex }
    /// The outcome of input item `position`.
    public subscript(position: Int) -> BatchItemResult<Target> { items[position] }

    /// Whether every item succeeded (an empty batch counts).
    public var allSucceeded: Bool { items.allSatisfy(\.succeeded) }

    /// The responses of the items that succeeded, in input order.
    public var responses: [Response] { items.compactMap(\.response) }

    /// Every item that did not succeed, cancelled ones included, with its input index.
    public var failures: [(index: Int, error: NetworkError)] {
        items.compactMap { item in item.error.map { (item.index, $0) } }
    }

    /// The input indexes of the cancelled items.
    package var cancelledIndexes: [Int] { items.filter(\.wasCancelled).map(\.index) }

    /// Whether any item was cancelled.
    public var wasCancelled: Bool { items.contains(where: \.wasCancelled) }

    /// The counts.
    public var summary: BatchSummary {
        var summary = BatchSummary(total: items.count, succeeded: 0, failed: 0, cancelled: 0, rounds: rounds)
        for item in items {
            if item.succeeded { summary.succeeded += 1 } else if item.wasCancelled { summary.cancelled += 1 } else { summary.failed += 1 }
        }
        return summary
    }

    /// Decodes every item's body as `T`, for batches whose items all answer the same shape.
    ///
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - keyPath: A dot-separated key path inside each body, such as `"data.user"`.
    ///   - decoder: Default: the provider's ``/NetCore/ProviderConfiguration/jsonDecoder``.
    /// - Returns: One value per item, in input order.
    /// - Throws: The error of the first item that failed or could not be decoded.
    public func decode<T: Decodable>(
        as type: T.Type = T.self, atKeyPath keyPath: String? = nil, using decoder: JSONDecoder? = nil
    ) throws(NetworkError) -> [T] {
        var values: [T] = []
        values.reserveCapacity(items.count)
        for item in items {
            values.append(try item.result.get().decode(T.self, atKeyPath: keyPath, using: decoder ?? self.decoder))
        }
        return values
    }

    /// Decodes each successful item's body as `T`, keeping every item's own outcome.
    public func decodeEach<T: Decodable>(
        as type: T.Type = T.self, atKeyPath keyPath: String? = nil, using decoder: JSONDecoder? = nil
    ) -> [Result<T, NetworkError>] {
        let decoder = decoder ?? self.decoder
        return items.map { item in
            item.result.flatMap { response in
                Result { () throws(NetworkError) -> T in try response.decode(T.self, atKeyPath: keyPath, using: decoder) }
            }
        }
    }
}
