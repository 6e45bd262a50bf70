import Foundation

/// Where a transport delivers a streamed response body, chunk by chunk, with backpressure.
///
/// The transport (the producer) checks ``hasRoom`` before handing over a chunk; when the buffer
/// is full it pauses the transfer and registers ``whenDrained(_:)`` to resume it once the
/// consumer has read enough. ``finish(throwing:)`` ends the body. A consumer that stops reading
/// (cancellation, a dropped stream) triggers the handler given to ``onCancel(_:)``, which aborts
/// the transfer.
public final class ResponseBodySink: Sendable {
    /// How the stream is read: timeouts, buffer size.
    public let options: StreamOptions

    private struct State {
        var chunks: [Data] = []
        var head = 0
        var buffered = 0
        var end: NetworkError?? = nil
        var waiter: CheckedContinuation<Data?, any Error>?
        var drained: (@Sendable () -> Void)?
        var cancelHandler: (@Sendable () -> Void)?
        var cancelled = false
        var endWaiters: [CheckedContinuation<NetworkError?, Never>] = []
        var delivered: Int64 = 0
    }

    private let state = Locked(State())

    /// Creates a sink (``Provider/stream(_:options:)`` makes one per attempt).
    public init(options: StreamOptions = StreamOptions()) {
        self.options = options
    }

    // MARK: Producer

    /// Whether the buffer can take another chunk now.
    public var hasRoom: Bool { state.withLock { $0.buffered < options.bufferBytes && !$0.cancelled } }

    /// Bytes handed to the sink that the reader has not taken yet.
    package var bufferedBytes: Int { state.withLock { $0.buffered } }

    /// Whether the consumer went away; the producer should abort the transfer.
    public var isCancelled: Bool { state.withLock { $0.cancelled } }

    /// Appends a chunk (even past the buffer size: check ``hasRoom`` first to pause in time).
    public func yield(_ chunk: Data) {
        guard !chunk.isEmpty else { return }
        let waiter = state.withLock { state -> CheckedContinuation<Data?, any Error>? in
            guard state.end == nil, !state.cancelled else { return nil }
            state.delivered += Int64(chunk.count)
            if let waiter = state.waiter {
                state.waiter = nil
                return waiter
            }
            state.chunks.append(chunk)
            state.buffered += chunk.count
            return nil
        }
        waiter?.resume(returning: chunk)
    }

    /// Calls `handler` once, when the consumer has drained the buffer to half its size.
    public func whenDrained(_ handler: @escaping @Sendable () -> Void) {
        let runNow = state.withLock { state -> Bool in
            if state.buffered <= options.bufferBytes / 2 || state.cancelled { return true }
            state.drained = handler
            return false
        }
        if runNow { handler() }
    }

    /// Sets what to do when the consumer goes away (abort the transfer). Runs at once if it already has.
    public func onCancel(_ handler: @escaping @Sendable () -> Void) {
        let runNow = state.withLock { state -> Bool in
            guard !state.cancelled else { return true }
            state.cancelHandler = handler
            return false
        }
        if runNow { handler() }
    }

    /// Ends the body: normally (`nil`) or with `error`. Later calls are ignored.
    public func finish(throwing error: NetworkError? = nil) {
        let (waiter, endWaiters, empty) = state.withLock {
            state -> (CheckedContinuation<Data?, any Error>?, [CheckedContinuation<NetworkError?, Never>], Bool) in
            guard state.end == nil else { return (nil, [], false) }
            state.end = .some(error)
            let waiters = state.endWaiters
            state.endWaiters = []
            defer { state.waiter = nil }
            return (state.waiter, waiters, state.head == state.chunks.count)
        }
        if let waiter, empty {
            if let error { waiter.resume(throwing: error) } else { waiter.resume(returning: nil) }
        }
        for endWaiter in endWaiters { endWaiter.resume(returning: error) }
    }

    // MARK: Consumer

    /// The next chunk, or `nil` at the end; throws the transfer's error.
    package func next() async throws -> Data? {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Data?, any Error>) in
                enum Step { case chunk(Data, (@Sendable () -> Void)?), end(NetworkError?), wait }
                let step = state.withLock { state -> Step in
                    if state.cancelled { return .end(.cancelled) }
                    if state.head < state.chunks.count {
                        let chunk = state.chunks[state.head]
                        state.chunks[state.head] = Data()  // release it now
                        state.head += 1
                        state.buffered -= chunk.count
                        if state.head == state.chunks.count {
                            state.chunks.removeAll(keepingCapacity: true)
                            state.head = 0
                        } else if state.head >= 256, state.head * 2 >= state.chunks.count {
                            state.chunks.removeFirst(state.head)
                            state.head = 0
                        }
                        var drained: (@Sendable () -> Void)?
                        if state.buffered <= options.bufferBytes / 2 {
                            drained = state.drained
                            state.drained = nil
                        }
                        return .chunk(chunk, drained)
                    }
                    if let end = state.end { return .end(end) }
                    state.waiter = continuation
                    return .wait
                }
                switch step {
                case .chunk(let chunk, let drained):
                    drained?()
                    continuation.resume(returning: chunk)
                case .end(let error):
                    if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: nil) }
                case .wait:
                    break
                }
            }
        } onCancel: {
            cancel()
        }
    }

    /// The consumer is gone: drops the buffer, aborts the transfer, fails a waiting read.
    package func cancel() {
        let (waiter, handler, drained) = state.withLock { state -> (CheckedContinuation<Data?, any Error>?, (@Sendable () -> Void)?, (@Sendable () -> Void)?) in
            guard !state.cancelled else { return (nil, nil, nil) }
            state.cancelled = true
            state.chunks = []
            state.head = 0
            state.buffered = 0
            defer { state.waiter = nil; state.cancelHandler = nil; state.drained = nil }
            return (state.waiter, state.cancelHandler, state.drained)
        }
        waiter?.resume(throwing: NetworkError.cancelled)
        handler?()
        drained?()
    }

    /// Waits until the producer finished; returns its error, or `nil` for a normal end.
    package func ended() async -> NetworkError? {
        await withCheckedContinuation { continuation in
            let end = state.withLock { state -> NetworkError?? in
                if let end = state.end { return .some(end) }
                state.endWaiters.append(continuation)
                return nil
            }
            if let end { continuation.resume(returning: end) }
        }
    }

    /// Body bytes handed over so far.
    package var deliveredBytes: Int64 { state.withLock { $0.delivered } }
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
