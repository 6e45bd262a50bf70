import Foundation

/// The life of a streamed response body, without locks or I/O: ``ResponseBodySink`` runs every
/// call through it under its lock and performs the returned action after releasing it.
///
/// Two sides, each owning what it may resume:
///
/// ```
/// producer: running(end waiters, onCancel, onDrained) ──finish──▶ ended(error?)
/// reader:   idle ──next, nothing buffered, producer running──▶ waiting(reader) ──yield / finish──▶ idle
///           idle / waiting ──cancel──▶ cancelled
/// ```
///
/// A continuation handed in (`read(_:)`, `awaitEnd(_:)`) is either stored in exactly one state
/// or handed straight back in the action; a stored one leaves its state in the action of the
/// transition that moves away from it, and never twice: every continuation goes out exactly once.
/// Chunks wait in ``buffer``, which is empty while a reader waits and after a cancellation.
/// Generic over the continuations so the tests can count what goes out.
package struct ResponseBodySinkStateMachine<Reader: Sendable, EndWaiter: Sendable>: Sendable {
    /// A producer callback (abort the transfer, resume a paused one).
    package typealias Handler = @Sendable () -> Void

    /// The producer's side.
    package enum Producer: Sendable {
        /// Chunks may still come. Holds who waits for the end and the producer's callbacks.
        case running(endWaiters: [EndWaiter], onCancel: Handler?, onDrained: Handler?)
        /// The producer ended: normally (`nil`) or with the error.
        case ended(NetworkError?)
    }

    /// The reader's side.
    package enum ReaderState: Sendable {
        /// Not waiting: the next read takes a buffered chunk or the end.
        case idle
        /// Waiting for a chunk or the end; nothing is buffered.
        case waiting(Reader)
        /// The reader went away; the buffer is dropped and every later read fails.
        case cancelled
    }

    /// What a reader gets.
    package enum Delivery: Sendable, CustomStringConvertible {
        /// The next chunk of the body.
        case chunk(Data)
        /// The body ended normally.
        case end
        /// The body ended with this error (or the reader left: `.cancelled`).
        case failure(NetworkError)

        package var description: String {
            switch self {
            case .chunk(let data): "chunk(\(data.count))"
            case .end: "end"
            case .failure(let error): "failure(\(error.code))"
            }
        }
    }

    /// What the sink does after a transition, outside its lock.
    package enum Action: Sendable, CustomStringConvertible {
        /// Nothing to resume or run.
        case none
        /// Resume `reader` with the delivery, then run the producer's drained callback if given.
        case resumeReader(Reader, Delivery, thenRun: Handler?)
        /// Run a callback now (registered too late to wait).
        case run(Handler)
        /// The producer ended: resume the waiting reader (if any) with the delivery and every end waiter.
        case ended(reader: Reader?, Delivery, endWaiters: [EndWaiter], error: NetworkError?)
        /// The reader left: fail the waiting reader (if any) with `.cancelled`, abort and unpause the producer.
        case cancelled(reader: Reader?, onCancel: Handler?, onDrained: Handler?)
        /// Resume one end waiter now (the producer had already ended).
        case resumeEndWaiter(EndWaiter, NetworkError?)

        package var description: String {
            func has(_ value: Any?) -> String { value == nil ? "no" : "yes" }
            switch self {
            case .none: return "none"
            case .resumeReader(_, let delivery, let drained): return "resumeReader(\(delivery), drained: \(has(drained)))"
            case .run: return "run"
            case .ended(let reader, let delivery, let waiters, _):
                return "ended(reader: \(reader == nil ? "no" : "\(delivery)"), endWaiters: \(waiters.count))"
            case .cancelled(let reader, let onCancel, let onDrained):
                return "cancelled(reader: \(has(reader)), onCancel: \(has(onCancel)), onDrained: \(has(onDrained)))"
            case .resumeEndWaiter(_, let error): return "resumeEndWaiter(\(error.map { "\($0.code)" } ?? "nil"))"
            }
        }
    }

    /// Chunks handed over and not read yet, in order.
    package struct Buffer: Sendable {
        private var chunks: [Data] = []
        private var head = 0
        /// Bytes waiting.
        package private(set) var bytes = 0

        /// Whether no chunk waits.
        package var isEmpty: Bool { head == chunks.count }

        mutating func append(_ chunk: Data) {
            chunks.append(chunk)
            bytes += chunk.count
        }

        /// Takes the oldest chunk (the buffer must not be empty).
        mutating func take() -> Data {
            let chunk = chunks[head]
            chunks[head] = Data()  // release it now
            head += 1
            bytes -= chunk.count
            if head == chunks.count {
                chunks.removeAll(keepingCapacity: true)
                head = 0
            } else if head >= 256, head * 2 >= chunks.count {
                chunks.removeFirst(head)
                head = 0
            }
            return chunk
        }

        mutating func drop() { self = Buffer() }
    }

    /// How many bytes may wait before ``hasRoom`` is false; the producer resumes at half.
    package let capacity: Int
    package private(set) var producer = Producer.running(endWaiters: [], onCancel: nil, onDrained: nil)
    package private(set) var reader = ReaderState.idle
    package private(set) var buffer = Buffer()
    /// Body bytes accepted so far.
    package private(set) var delivered: Int64 = 0

    /// A machine whose buffer holds `capacity` bytes before the producer should pause.
    package init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// Whether the reader went away.
    package var isCancelled: Bool {
        if case .cancelled = reader { return true }
        return false
    }

    /// Whether the producer may hand over another chunk without pausing.
    package var hasRoom: Bool { buffer.bytes < capacity && !isCancelled }

    private var isDrained: Bool { buffer.bytes <= capacity / 2 }

    // MARK: Producer events

    /// The producer hands over a chunk: it goes to a waiting reader or into the buffer.
    package mutating func yield(_ chunk: Data) -> Action {
        guard !chunk.isEmpty, case .running = producer else { return .none }
        switch reader {
        case .cancelled:
            return .none
        case .waiting(let waiting):
            delivered += Int64(chunk.count)
            reader = .idle
            return .resumeReader(waiting, .chunk(chunk), thenRun: nil)
        case .idle:
            delivered += Int64(chunk.count)
            buffer.append(chunk)
            return .none
        }
    }

    /// The producer ended; later calls are ignored.
    package mutating func finish(_ error: NetworkError?) -> Action {
        guard case .running(let endWaiters, _, _) = producer else { return .none }
        producer = .ended(error)
        let delivery = error.map(Delivery.failure) ?? .end
        guard case .waiting(let waiting) = reader else {
            return .ended(reader: nil, delivery, endWaiters: endWaiters, error: error)
        }
        reader = .idle
        return .ended(reader: waiting, delivery, endWaiters: endWaiters, error: error)
    }

    /// The producer paused; `handler` resumes it once the buffer drained to half (at once if it has).
    package mutating func whenDrained(_ handler: @escaping Handler) -> Action {
        guard case .running(let endWaiters, let onCancel, _) = producer, !isCancelled, !isDrained else { return .run(handler) }
        producer = .running(endWaiters: endWaiters, onCancel: onCancel, onDrained: handler)
        return .none
    }

    /// What aborts the transfer when the reader leaves: kept, or run at once if it already left.
    package mutating func onCancel(_ handler: @escaping Handler) -> Action {
        if isCancelled { return .run(handler) }
        guard case .running(let endWaiters, _, let onDrained) = producer else { return .none }
        producer = .running(endWaiters: endWaiters, onCancel: handler, onDrained: onDrained)
        return .none
    }

    // MARK: Reader events

    /// The reader wants the next chunk: it gets one, the end, or waits.
    package mutating func read(_ waiting: Reader) -> Action {
        switch reader {
        case .cancelled:
            return .resumeReader(waiting, .failure(.cancelled), thenRun: nil)
        case .waiting:
            return .resumeReader(waiting, .failure(Self.secondReader), thenRun: nil)
        case .idle:
            break
        }
        if !buffer.isEmpty {
            let chunk = buffer.take()
            guard case .running(let endWaiters, let onCancel, let onDrained?) = producer, isDrained else {
                return .resumeReader(waiting, .chunk(chunk), thenRun: nil)
            }
            producer = .running(endWaiters: endWaiters, onCancel: onCancel, onDrained: nil)
            return .resumeReader(waiting, .chunk(chunk), thenRun: onDrained)
        }
        guard case .ended(let error) = producer else {
            reader = .waiting(waiting)
            return .none
        }
        return .resumeReader(waiting, error.map(Delivery.failure) ?? .end, thenRun: nil)
    }

    /// The reader went away: the buffer goes, a waiting read fails, the producer is aborted.
    package mutating func cancel() -> Action {
        let waiting: Reader?
        switch reader {
        case .cancelled: return .none
        case .waiting(let reader): waiting = reader
        case .idle: waiting = nil
        }
        reader = .cancelled
        buffer.drop()
        guard case .running(let endWaiters, let onCancel, let onDrained) = producer else {
            return .cancelled(reader: waiting, onCancel: nil, onDrained: nil)
        }
        producer = .running(endWaiters: endWaiters, onCancel: nil, onDrained: nil)
        return .cancelled(reader: waiting, onCancel: onCancel, onDrained: onDrained)
    }

    /// Someone waits for the producer's end (whatever the reader does).
    package mutating func awaitEnd(_ waiter: EndWaiter) -> Action {
        switch producer {
        case .ended(let error):
            return .resumeEndWaiter(waiter, error)
        case .running(var endWaiters, let onCancel, let onDrained):
            endWaiters.append(waiter)
            producer = .running(endWaiters: endWaiters, onCancel: onCancel, onDrained: onDrained)
            return .none
        }
    }

    static var secondReader: NetworkError {
        .transport(reason: "a response stream was read by two readers at once; read it from one task")
    }
}
