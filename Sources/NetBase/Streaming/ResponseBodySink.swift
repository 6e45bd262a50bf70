import NetToolbox
import Foundation

/// Where a transport delivers a streamed response body, chunk by chunk, with backpressure.
///
/// The transport (the producer) checks ``hasRoom`` before handing over a chunk; when the buffer
/// is full it pauses the transfer and registers ``whenDrained(_:)`` to resume it once the
/// consumer has read enough. ``finish(throwing:)`` ends the body. A consumer that stops reading
/// (cancellation, a dropped stream) triggers the handler given to ``onCancel(_:)``, which aborts
/// the transfer.
///
/// The rules live in `ResponseBodySinkStateMachine`: the waiting reader and the producer's
/// callbacks are held by the state that may resume them, and resumed from one place.
package final class ResponseBodySink: Sendable {
    /// How the stream is read: timeouts, buffer size.
    package let options: StreamOptions

    typealias Machine = ResponseBodySinkStateMachine<CheckedContinuation<Data?, any Error>, CheckedContinuation<NetworkError?, Never>>

    // The whole state, reader and end waiters included; `perform` resumes them after the lock.
    private let state: Locked<Machine>

    /// Creates a sink (``Provider/stream(_:options:)`` makes one per attempt).
    package init(options: StreamOptions = StreamOptions()) {
        self.options = options
        self.state = Locked(Machine(capacity: options.bufferBytes))
    }

    // MARK: Producer

    /// Whether the buffer can take another chunk now.
    package var hasRoom: Bool { state.withLock { $0.hasRoom } }

    /// Bytes handed to the sink that the reader has not taken yet.
    package var bufferedBytes: Int { state.withLock { $0.buffer.bytes } }

    /// Whether the consumer went away; the producer should abort the transfer.
    package var isCancelled: Bool { state.withLock { $0.isCancelled } }

    /// Appends a chunk (even past the buffer size: check ``hasRoom`` first to pause in time).
    package func yield(_ chunk: Data) {
        perform(state.withLock { $0.yield(chunk) })
    }

    /// Calls `handler` once, when the consumer has drained the buffer to half its size.
    package func whenDrained(_ handler: @escaping @Sendable () -> Void) {
        perform(state.withLock { $0.whenDrained(handler) })
    }

    /// Sets what to do when the consumer goes away (abort the transfer). Runs at once if it already has.
    package func onCancel(_ handler: @escaping @Sendable () -> Void) {
        perform(state.withLock { $0.onCancel(handler) })
    }

    /// Ends the body: normally (`nil`) or with `error`. Later calls are ignored.
    package func finish(throwing error: NetworkError? = nil) {
        perform(state.withLock { $0.finish(error) })
    }

    // MARK: Consumer

    /// The next chunk, or `nil` at the end; throws the transfer's error.
    package func next() async throws -> Data? {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (reader: CheckedContinuation<Data?, any Error>) in
                perform(state.withLock { $0.read(reader) })
            }
        } onCancel: {
            cancel()
        }
    }

    /// The consumer is gone: drops the buffer, aborts the transfer, fails a waiting read.
    package func cancel() {
        perform(state.withLock { $0.cancel() })
    }

    /// Waits until the producer finished; returns its error, or `nil` for a normal end.
    package func ended() async -> NetworkError? {
        await withCheckedContinuation { (waiter: CheckedContinuation<NetworkError?, Never>) in
            perform(state.withLock { $0.awaitEnd(waiter) })
        }
    }

    /// Body bytes handed over so far.
    package var deliveredBytes: Int64 { state.withLock { $0.delivered } }

    /// The one place the sink resumes a continuation or runs a producer callback, after the lock.
    private func perform(_ action: Machine.Action) {
        switch action {
        case .none:
            break
        case .resumeReader(let reader, let delivery, let drained):
            drained?()
            Self.resume(reader, with: delivery)
        case .run(let handler):
            handler()
        case .ended(let reader, let delivery, let endWaiters, let error):
            if let reader { Self.resume(reader, with: delivery) }
            for waiter in endWaiters { waiter.resume(returning: error) }
        case .cancelled(let reader, let onCancel, let onDrained):
            if let reader { Self.resume(reader, with: .failure(.cancelled)) }
            onCancel?()
            onDrained?()
        case .resumeEndWaiter(let waiter, let error):
            waiter.resume(returning: error)
        }
    }

    private static func resume(_ reader: CheckedContinuation<Data?, any Error>, with delivery: Machine.Delivery) {
        switch delivery {
        case .chunk(let chunk): reader.resume(returning: chunk)
        case .end: reader.resume(returning: nil)
        case .failure(let error): reader.resume(throwing: error)
        }
    }
}

/// How a response stream is read.
public struct StreamOptions: Sendable, Hashable {
    /// The longest silence between two chunks (and before the head). `nil`: the target's or the
    /// provider's timeout.
    public var idleTimeout: Duration?
    /// A limit for the whole stream. Default `nil`: a stream may run for ever while data flows.
    public var totalTimeout: Duration?
    /// How many bytes may wait for the consumer before the transfer is paused. Default 1 MiB.
    /// `URLSessionTransport` cannot pause (a resumed data task starts over): it ends the stream
    /// with ``NetworkError/transport(reason:underlying:)`` once max(this, 64 MiB) bytes wait.
    public var bufferBytes: Int
    /// Sent as `Last-Event-ID` (Server-Sent Events resuming after this event). Default `nil`.
    public var lastEventID: String?

    /// Creates options.
    public init(idleTimeout: Duration? = nil, totalTimeout: Duration? = nil, bufferBytes: Int = 1 << 20, lastEventID: String? = nil) {
        self.idleTimeout = idleTimeout
        self.totalTimeout = totalTimeout
        self.bufferBytes = max(1, bufferBytes)
        self.lastEventID = lastEventID
    }
}
