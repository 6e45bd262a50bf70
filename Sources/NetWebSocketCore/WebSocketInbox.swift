import NetToolbox
import NetBase
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
        /// The end readers see (after the tap saw it, when there is a tap).
        var end: NetworkError?? = .none
        /// Whether the end came (only the first counts; later messages are dropped).
        var ended = false
        /// The reader waiting for a message, and the number its ``next()`` call drew.
        var waiter: (id: UInt64, continuation: CheckedContinuation<WebSocket.Message?, any Error>)?
        var readers: UInt64 = 0
        var onRoom: (@Sendable () -> Void)?
        /// Who sees each arrival and the end (``tap(_:)``); dropped once it saw the end, so the
        /// tap (and whatever it captured) never outlives the connection's messages.
        var tap: (@Sendable (Event) -> Void)?
        /// Events waiting for the tap, in order, each with whether the reader gets it once the
        /// tap saw it (so a reader never sees an arrival the tap has not), and whether a caller
        /// is delivering them.
        var tapQueue: [(event: Event, publish: Bool)] = []
        var tapDraining = false

        /// Queues `event` for the tap; returns whether the caller must deliver the queue
        /// (``drainTap()``), being the first to find nobody delivering it.
        mutating func tapping(_ event: Event, publish: Bool) -> Bool {
            tapQueue.append((event, publish))
            if tapDraining { return false }
            tapDraining = true
            return true
        }

        /// Makes `message` the reader's: hands it to the waiting reader or queues it (in an
        /// inbox of `capacity` bytes).
        /// - Returns: The waiting reader to resume, and the ``onRoom`` handler (now cleared) to
        ///   call outside the lock when handing the message over made room (it was counted
        ///   when it arrived, so the inbox may have been full while the tap saw it).
        mutating func publish(
            _ message: WebSocket.Message, capacity: Int
        ) -> (waiter: CheckedContinuation<WebSocket.Message?, any Error>?, room: (@Sendable () -> Void)?) {
            guard let waiter else {
                queue.append(message)
                return (nil, nil)
            }
            self.waiter = nil
            queuedBytes -= WebSocketInbox.cost(of: message)
            guard queuedBytes < capacity else { return (waiter.continuation, nil) }
            defer { onRoom = nil }
            return (waiter.continuation, onRoom)
        }

        /// Makes the end the reader's; returns the waiting reader to answer.
        mutating func publishEnd(_ error: NetworkError?) -> CheckedContinuation<WebSocket.Message?, any Error>? {
            end = .some(error)
            defer { waiter = nil }
            return waiter?.continuation
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

    /// Called once, the next time a read makes room: from the reader's task, or from whoever
    /// hands a message to a waiting reader.
    package func onRoom(_ handler: @escaping @Sendable () -> Void) {
        state.withLock { $0.onRoom = handler }
    }

    /// Hands `message` to the reader (after the tap, if any, saw it); returns whether there is
    /// still room.
    @discardableResult
    package func yield(_ message: WebSocket.Message) -> Bool {
        typealias Outcome = (
            waiter: CheckedContinuation<WebSocket.Message?, any Error>?, onRoom: (@Sendable () -> Void)?, room: Bool, drain: Bool
        )
        let outcome = state.withLock { state -> Outcome in
            guard !state.ended else { return (nil, nil, false, false) }
            // Counted at once, so back-pressure holds while the tap sees it.
            state.queuedBytes += Self.cost(of: message)
            let room = state.queuedBytes < capacity
            // Only a tapped inbox reads the clock.
            if state.tap != nil { return (nil, nil, room, state.tapping(.message(message, Date()), publish: true)) }
            let (waiter, onRoom) = state.publish(message, capacity: capacity)
            return (waiter, onRoom, state.queuedBytes < capacity, false)
        }
        if outcome.drain { drainTap() }
        outcome.waiter?.resume(returning: message)
        outcome.onRoom?()
        return outcome.room
    }

    /// Ends the messages after the queued ones: normally (`nil`) or with `error`. Only the first end counts.
    package func finish(throwing error: NetworkError? = nil) {
        let date = Date()
        let (waiter, drain) = state.withLock { state -> (CheckedContinuation<WebSocket.Message?, any Error>?, Bool) in
            guard !state.ended else { return (nil, false) }
            state.ended = true
            if state.tap != nil { return (nil, state.tapping(.end(error, date), publish: true)) }
            return (state.publishEnd(error), false)
        }
        if drain { drainTap() }
        if let error { waiter?.resume(throwing: error) } else { waiter?.resume(returning: nil) }
    }

    /// Calls `tap` with every message that arrives and with the end, in order, starting with
    /// the messages already waiting (and the end, if it came); set once, before anyone reads.
    /// The calls are made outside the inbox's lock, one at a time, never nested: whoever finds
    /// the tap idle delivers every queued event (its own and those queued meanwhile by other
    /// threads) before returning. The tap is released after the end.
    package func tap(_ tap: @escaping @Sendable (Event) -> Void) {
        state.withLock { state in
            state.tap = tap
            let now = Date()
            // What the reader can already see: the tap sees it first thing.
            var seen = state.queue[state.head...].map { (event: Event.message($0, now), publish: false) }
            if case .some(let error) = state.end { seen.append((.end(error, now), false)) }
            state.tapQueue = seen + state.tapQueue
            state.tapDraining = true
        }
        drainTap()
    }

    /// Delivers the tap's queued events until none is left (the caller set `tapDraining`), making
    /// each one the reader's once the tap saw it.
    private func drainTap() {
        while true {
            let (tap, events) = state.withLock { state -> ((@Sendable (Event) -> Void)?, [(event: Event, publish: Bool)]) in
                guard !state.tapQueue.isEmpty, let tap = state.tap else {
                    state.tapDraining = false
                    // Queued only before the end: an empty queue after it means the end was delivered.
                    if case .some = state.end { state.tap = nil }
                    return (nil, [])
                }
                defer { state.tapQueue = [] }
                return (tap, state.tapQueue)
            }
            guard let tap else { return }
            for (event, publish) in events {
                tap(event)
                if publish { self.publish(event) }
            }
        }
    }

    /// Makes a tapped `event` the reader's.
    private func publish(_ event: Event) {
        switch event {
        case .message(let message, _):
            let (waiter, room) = state.withLock { $0.publish(message, capacity: capacity) }
            waiter?.resume(returning: message)
            room?()
        case .end(let error, _):
            let waiter = state.withLock { $0.publishEnd(error) }
            if let error { waiter?.resume(throwing: error) } else { waiter?.resume(returning: nil) }
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
    fileprivate static func cost(of message: WebSocket.Message) -> Int {
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
