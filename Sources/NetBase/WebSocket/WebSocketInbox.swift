import Foundation

/// Received WebSocket messages waiting for their reader, with back-pressure: the connection asks
/// ``hasRoom`` before reading more from the socket and is called back (``onRoom``) when the
/// reader took enough. Memory stays bounded by ``capacity`` bytes (plus one message); each
/// message counts ``messageOverhead`` bytes on top of its payload, so a flood of empty messages
/// fills the inbox too.
package final class WebSocketInbox: Sendable {
    private struct State {
        var queue: [WebSocket.Message] = []
        var head = 0
        var queuedBytes = 0
        var end: NetworkError?? = .none
        /// The reader waiting for a message, and the number its ``next()`` call drew.
        var waiter: (id: UInt64, continuation: CheckedContinuation<WebSocket.Message?, any Error>)?
        var readers: UInt64 = 0
        var onRoom: (@Sendable () -> Void)?
        /// Who sees each arrival and the end (``tap(_:)``), and the events that wait while the
        /// tap's first calls are made (non-`nil` only then).
        var tap: (@Sendable (Event) -> Void)?
        var tapBacklog: [Event]?

        /// The tap to call with `event` now, or `nil` (none, or queued in the backlog).
        mutating func tapping(_ event: Event) -> (@Sendable (Event) -> Void)? {
            guard let tap else { return nil }
            if tapBacklog != nil {
                tapBacklog?.append(event)
                return nil
            }
            return tap
        }
    }

    /// What a tap sees.
    package enum Event: Sendable {
        /// A message arrived.
        case message(WebSocket.Message, Date)
        /// The messages ended, normally (`nil`) or with an error.
        case end(NetworkError?, Date)
    }

    /// How many bytes may wait unread before the connection stops reading.
    package let capacity: Int
    private let state = Locked(State())

    /// How many read messages may stay in front of the queue before they are dropped from it
    /// (when they are at least half of it, so each message moves at most once on average).
    static let compactionThreshold = 1024

    /// What each queued message counts on top of its payload (its bookkeeping), in bytes.
    package static let messageOverhead = 64

    /// How many messages the queue's storage holds, read ones not yet dropped included (tests).
    var storedMessageCount: Int { state.withLock { $0.queue.count } }

    /// Whether a reader waits for a message (tests).
    var hasWaitingReader: Bool { state.withLock { $0.waiter != nil } }

    package init(capacity: Int) {
        self.capacity = capacity
    }

    /// Whether fewer than ``capacity`` bytes wait.
    package var hasRoom: Bool { state.withLock { $0.queuedBytes < capacity } }

    /// Called once, from the reader's task, the next time a read makes room.
    package func onRoom(_ handler: @escaping @Sendable () -> Void) {
        state.withLock { $0.onRoom = handler }
    }

    /// Hands `message` to the reader; returns whether there is still room.
    @discardableResult
    package func yield(_ message: WebSocket.Message) -> Bool {
        let waiter: CheckedContinuation<WebSocket.Message?, any Error>?
        let room: Bool
        let tap: (call: @Sendable (Event) -> Void, event: Event)?
        (waiter, room, tap) = state.withLock { state in
            guard case .none = state.end else { return (nil, false, nil) }
            // Only a tapped inbox reads the clock.
            var tap: (call: @Sendable (Event) -> Void, event: Event)?
            if state.tap != nil {
                let event = Event.message(message, Date())
                if let call = state.tapping(event) { tap = (call, event) }
            }
            if let waiter = state.waiter {
                state.waiter = nil
                return (waiter.continuation, state.queuedBytes < capacity, tap)
            }
            state.queue.append(message)
            state.queuedBytes += Self.cost(of: message)
            return (nil, state.queuedBytes < capacity, tap)
        }
        if let tap { tap.call(tap.event) }
        waiter?.resume(returning: message)
        return room
    }

    /// Ends the messages after the queued ones: normally (`nil`) or with `error`. Only the first end counts.
    package func finish(throwing error: NetworkError? = nil) {
        let date = Date()
        let (waiter, tap) = state.withLock { state -> (CheckedContinuation<WebSocket.Message?, any Error>?, (@Sendable (Event) -> Void)?) in
            guard case .none = state.end else { return (nil, nil) }
            state.end = .some(error)
            defer { state.waiter = nil }
            return (state.waiter?.continuation, state.tapping(.end(error, date)))
        }
        tap?(.end(error, date))
        if let error { waiter?.resume(throwing: error) } else { waiter?.resume(returning: nil) }
    }

    /// Calls `tap` with every message that arrives and with the end, in order, starting with
    /// the messages already waiting (and the end, if it came); set once, before anyone reads.
    /// The calls are made outside the inbox's lock, one at a time.
    package func tap(_ tap: @escaping @Sendable (Event) -> Void) {
        var pending = state.withLock { state -> [Event] in
            state.tap = tap
            state.tapBacklog = []
            let now = Date()
            var events = state.queue[state.head...].map { Event.message($0, now) }
            if case .some(let error) = state.end { events.append(.end(error, now)) }
            return events
        }
        // Arrivals during these calls wait in the backlog, so the tap sees everything in order;
        // the backlog ends (arrivals call the tap themselves) once it is found empty.
        while true {
            for event in pending { tap(event) }
            pending = state.withLock { state in
                let next = state.tapBacklog ?? []
                state.tapBacklog = next.isEmpty ? nil : []
                return next
            }
            if pending.isEmpty { return }
        }
    }

    /// The next message, `nil` at a normal end, or the error the connection failed with.
    ///
    /// One task reads at a time: a call made while another waits fails with
    /// ``WebSocketErrors/concurrentRead`` (the waiting one keeps waiting).
    package func next() async throws -> WebSocket.Message? {
        if let ready = take(waiter: nil) { return try ready.get() }
        let id = state.withLock { state in
            state.readers &+= 1
            return state.readers
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                if let ready = take(waiter: (id, continuation)) { continuation.resume(with: ready) }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<WebSocket.Message?, any Error>? in
                guard let waiter = state.waiter, waiter.id == id else { return nil }
                state.waiter = nil
                return waiter.continuation
            }
            waiter?.resume(throwing: NetworkError.cancelled)
        }
    }

    /// What `message` counts against ``capacity``.
    private static func cost(of message: WebSocket.Message) -> Int {
        message.byteCount + messageOverhead
    }

    /// What a read gets now (a message, the end, or cancellation); otherwise `waiter` (if any)
    /// is stored for ``yield(_:)`` or ``finish(throwing:)`` and the answer is `nil`.
    private func take(
        waiter: (id: UInt64, continuation: CheckedContinuation<WebSocket.Message?, any Error>)?
    ) -> Result<WebSocket.Message?, any Error>? {
        let (answer, room) = state.withLock { state -> (Result<WebSocket.Message?, any Error>?, (@Sendable () -> Void)?) in
            if state.head < state.queue.count {
                let message = state.queue[state.head]
                state.head += 1
                state.queuedBytes -= Self.cost(of: message)
                if state.head == state.queue.count {
                    state.queue.removeAll(keepingCapacity: true)
                    state.head = 0
                } else if state.head >= Self.compactionThreshold, state.head * 2 >= state.queue.count {
                    // A reader that never catches up would otherwise keep every message it read.
                    state.queue.removeFirst(state.head)
                    state.head = 0
                }
                var room: (@Sendable () -> Void)?
                if state.queuedBytes < capacity {
                    room = state.onRoom
                    state.onRoom = nil
                }
                return (.success(message), room)
            }
            if case .some(let error) = state.end {
                return (error.map { .failure($0) } ?? .success(nil), nil)
            }
            if Task.isCancelled { return (.failure(NetworkError.cancelled), nil) }
            if let waiter {
                if state.waiter != nil { return (.failure(WebSocketErrors.concurrentRead), nil) }
                state.waiter = waiter
            }
            return (nil, nil)
        }
        room?()
        return answer
    }
}
