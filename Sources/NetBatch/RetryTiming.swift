import NetToolbox
import Foundation
import NetCore

/// When a ``BatchManager`` tries a failed item again.
///
/// Every batch retry is a new `Provider.request` call, on top of whatever retries the provider's
/// own plugins (a retry plugin) already made inside that call. Items are retried at most
/// ``BatchConfiguration/maxRetries`` times (rounds, for ``afterBatch``), and only when
/// ``BatchConfiguration/isRetryable`` accepts the error. A cancelled item is never retried.
///
/// ```swift
/// BatchConfiguration(retryTiming: .immediately)
/// BatchConfiguration(retryTiming: .afterBatch { failures in failures.count < 10 })
/// BatchConfiguration(retryTiming: .backoff(initial: .milliseconds(200), multiplier: 2, max: .seconds(5)))
/// ```
public struct RetryTiming: Sendable, CustomStringConvertible {
    enum Kind: Sendable {
        case none
        case immediately
        case afterBatch(@Sendable ([BatchFailure]) async -> Bool)
        case backoff(initial: Duration, multiplier: Double, max: Duration)
    }

    let kind: Kind

    /// Failures are reported, never retried.
    public static let none = RetryTiming(kind: .none)

    /// A failed item is sent again at once, in the same concurrency slot.
    public static let immediately = RetryTiming(kind: .immediately)

    /// When every item of a round has finished, the failed ones run again as a new round.
    /// Always retries (up to ``BatchConfiguration/maxRetries`` extra rounds).
    public static let afterBatch = RetryTiming(kind: .afterBatch({ _ in true }))

    /// When every item of a round has finished, the failed ones run again as a new round if
    /// `shouldRetry` returns `true`.
    ///
    /// - Parameter shouldRetry: Called after each round that left retryable failures, with those
    ///   failures (input indexes, errors, attempts so far). Return `false` to keep them as they are.
    public static func afterBatch(shouldRetry: @escaping @Sendable ([BatchFailure]) async -> Bool) -> RetryTiming {
        RetryTiming(kind: .afterBatch(shouldRetry))
    }

    /// A failed item is sent again after a growing delay, in the same concurrency slot:
    /// `initial`, then `initial * multiplier`, `initial * multiplier²`, … never more than `max`.
    ///
    /// - Parameters:
    ///   - initial: The wait before the first retry. Default: 100 ms.
    ///   - multiplier: Growth factor between retries (1 means a constant delay). Default: 2.
    ///   - max: The longest wait. Default: 10 s.
    public static func backoff(
        initial: Duration = .milliseconds(100), multiplier: Double = 2, max: Duration = .seconds(10)
    ) -> RetryTiming {
        RetryTiming(kind: .backoff(initial: initial, multiplier: Swift.max(1, multiplier), max: max))
    }

    /// The wait before retry number `retry` (1 for the first retry), or `nil` when this timing
    /// does not retry inside an item's slot.
    func inlineDelay(beforeRetry retry: Int) -> Duration? {
        switch kind {
        case .none, .afterBatch: return nil
        case .immediately: return .zero
        case .backoff(let initial, let multiplier, let max):
            return Backoff(initial: initial, multiplier: multiplier, maximum: max).delay(beforeRetry: retry)
        }
    }

    public var description: String {
        switch kind {
        case .none: "none"
        case .immediately: "immediately"
        case .afterBatch: "afterBatch"
        case .backoff(let initial, let multiplier, let max): "backoff(initial: \(initial), multiplier: \(multiplier), max: \(max))"
        }
    }
}

/// An item that failed in a round, as ``RetryTiming/afterBatch(shouldRetry:)`` sees it.
public struct BatchFailure: Sendable, CustomStringConvertible {
    /// The item's position in the input.
    public let index: Int
    /// Why its last attempt failed.
    public let error: NetworkError
    /// How many times it has been sent so far.
    public let attempts: Int

    /// Creates a failure record.
    package init(index: Int, error: NetworkError, attempts: Int) {
        self.index = index
        self.error = error
        self.attempts = attempts
    }

    public var description: String { "item \(index) after \(attempts) attempt(s): \(error)" }
}
