import NetToolbox
import NetBase
import Foundation

/// A response whose body arrives as it is produced: the head first, then `Data` chunks.
///
/// ```swift
/// let stream = provider.stream(.completions(prompt))
/// let head = try await stream.head           // status and headers, no body
/// for try await event in stream.events {     // or `stream` for chunks, `stream.lines` for lines
///     print(event.data)
/// }
/// ```
///
/// Plugins run as for any request: `prepare` and `willSend` first; validation and
/// `succeed`/`failure` (and retries) on the head, before any body byte reaches you; `didReceive`
/// and `process` when the stream ends (normally, with an error, or cancelled). Reading slowly
/// slows the transfer (the transport pauses at ``StreamOptions/bufferBytes``). Stopping
/// iteration, cancelling the reading task or dropping the stream cancels the transfer.
public struct ResponseStream: AsyncSequence, Sendable {
    public typealias Element = Data
    public typealias Failure = any Error

    package let controller: StreamController

    /// The response head (status and headers; `data` is empty for a 2xx).
    /// - Throws: ``NetworkError`` when the request failed before its body (validation included).
    public var head: Response {
        get async throws(NetworkError) { try await controller.head().response }
    }

    /// The body as chunks, in order.
    public func makeAsyncIterator() -> Iterator {
        Iterator(controller: controller)
    }

    /// Iterates body chunks.
    public struct Iterator: AsyncIteratorProtocol {
        let controller: StreamController

        /// The next chunk, or `nil` at the end of the body. At the end (or a failure) the call's
        /// `didReceive` and `process` hooks have run before this returns.
        public mutating func next() async throws -> Data? {
            let (_, sink) = try await controller.head()
            do {
                if let chunk = try await sink.next() { return chunk }
                await controller.finished()
                return nil
            } catch {
                await controller.finished()
                throw error
            }
        }
    }
}

/// Owned by the reader's ``ResponseStream``: when the last copy goes away, the transfer is
/// cancelled. The producing pipeline only holds the ``StreamHead``.
package final class StreamController: Sendable {
    let channel = StreamHead()
    private let task = Locked<Task<Void, Never>?>(nil)

    /// Starts `produce` as a call of `calls` (so `cancelAll()` cancels it); it must call
    /// ``StreamHead/deliver(_:)`` once.
    func start(in calls: CallTasks, _ produce: @escaping @Sendable (StreamHead) async -> Void) {
        let channel = self.channel
        task.withLock { $0 = calls.start { await produce(channel) } }
    }

    package func head() async throws(NetworkError) -> (response: Response, sink: ResponseBodySink) {
        try await withTaskCancellationHandler {
            await channel.head()
        } onCancel: {
            cancel()
        }.get()
    }

    /// Returns when the producing pipeline has ended (its last hooks have run).
    func finished() async {
        await task.withLock { $0 }?.value
    }

    /// Cancels the producing pipeline (and with it the transfer).
    func cancel() {
        channel.sink?.cancel()
        task.withLock { $0 }?.cancel()
    }

    deinit { cancel() }
}

/// The head of a stream, handed from the producing pipeline to readers exactly once.
final class StreamHead: Sendable {
    typealias Outcome = Result<(Response, ResponseBodySink), NetworkError>

    private let outcome = OnceValue<Outcome>()

    /// Hands the head (or the failure) to readers; later calls are ignored.
    func deliver(_ head: Outcome) {
        outcome.resolve(head)
    }

    /// Waits for the head.
    func head() async -> Outcome {
        await outcome.value()
    }

    /// The body's sink, once a head was delivered.
    var sink: ResponseBodySink? {
        guard case .success(let head)? = outcome.current else { return nil }
        return head.1
    }
}
