#if canImport(FoundationNetworking)
    import NetWebSocketCore
    import NetToolbox
    import FoundationNetworking
#endif
import Foundation
import NetBase

/// A ``WebSocketConnection`` over a `URLSessionWebSocketTask` (through ``WebSocketTaskAPI``):
/// the task frames, masks, validates and answers pings; this adapter reads its messages into
/// the ``WebSocketInbox`` with back-pressure (no `receive` while the inbox is full), maps its
/// errors to ``NetworkError``s and its close codes to ``WebSocket/CloseCode``.
///
/// URLSession runs the close handshake itself: ``close(_:reason:)`` sends the close frame through
/// the task and waits, up to the close timeout, for the task to report the end; ``closeCode`` is
/// then the peer's code when the task has one, otherwise 1006. Sends and pings still waiting
/// when the connection closes or fails end with a ``NetworkError``.
final class URLSessionWebSocketConnection: InboxBackedWebSocketConnection {
    private struct State {
        /// Closing or closed: nothing more is sent.
        var ended = false
        /// The messages ended and the close code is set.
        var finished = false
        var closeCode: WebSocket.CloseCode?
        var closeReason: String?
        /// Bumped per back-pressure wait, so only the latest wait resumes reading, once.
        var resumeTicket: UInt64 = 0
        /// Sends and pings waiting for the task's handler, by number.
        var waiters: [UInt64: CheckedContinuation<(any Error)?, Never>] = [:]
        var nextWaiter: UInt64 = 0
        /// A ``close(_:reason:)`` waiting for the end.
        var closeWaiter: CheckedContinuation<Void, Never>?
    }

    let inbox: WebSocketInbox
    private let task: any WebSocketTaskAPI
    private let state = Locked(State())
    private let maximumMessageSize: Int
    private let closeTimeout: Duration

    init(task: any WebSocketTaskAPI, configuration: WebSocketConfiguration) {
        self.task = task
        maximumMessageSize = configuration.effectiveMaximumMessageSize
        closeTimeout = configuration.closeTimeout
        inbox = WebSocketInbox(capacity: max(configuration.effectiveMaximumMessageSize, 1))
        receiveNext()
        if let interval = configuration.pingInterval { startPinging(every: interval) }
    }

    var closeCode: WebSocket.CloseCode? { state.withLock { $0.closeCode } }
    var closeReason: String? { state.withLock { $0.closeReason } }

    func send(_ message: WebSocket.Message) async throws {
        guard !state.withLock({ $0.ended }) else { throw WebSocketErrors.closed }
        let outgoing: URLSessionWebSocketTask.Message =
            switch message {
            case .text(let text): .string(text)
            case .binary(let data): .data(data)
            }
        try await complete { done in self.task.send(outgoing, completionHandler: done) }
    }

    func ping() async throws {
        guard !state.withLock({ $0.ended }) else { throw WebSocketErrors.closed }
        try await complete { done in self.task.sendPing(pongReceiveHandler: done) }
    }

    func close(_ code: WebSocket.CloseCode, reason: String) async {
        guard closeLocally(code, reason: reason) else { return }
        // Wait for the task to report the end (its `receive` fails), up to the close timeout.
        let timer = Task { [weak self, closeTimeout] in
            try await Task.sleep(for: closeTimeout)
            self?.finishClose(error: nil)
        }
        defer { timer.cancel() }
        await withCheckedContinuation { continuation in
            let finished = state.withLock { state in
                if !state.finished { state.closeWaiter = continuation }
                return state.finished
            }
            if finished { continuation.resume() }
        }
    }

    func abandon() {
        guard closeLocally(.goingAway, reason: "") else { return }
        finishClose(error: nil)
    }

    // MARK: Reading

    /// Asks the task for the next message (one `receive` at a time).
    private func receiveNext() {
        task.receive { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let message): self.deliver(message)
            case .failure(let error): self.ended(by: error)
            }
        }
    }

    private func deliver(_ message: URLSessionWebSocketTask.Message) {
        let converted: WebSocket.Message
        switch message {
        case .string(let text): converted = .text(text)
        case .data(let data): converted = .binary(data)
        @unknown default: converted = .binary(Data())
        }
        if inbox.yield(converted) { return receiveNext() }
        // Full: read again once the reader made room (checked again after registering, in
        // case it did so in between; the ticket makes sure only one of the two resumes).
        let ticket = state.withLock { state in
            state.resumeTicket &+= 1
            return state.resumeTicket
        }
        let resume: @Sendable () -> Void = { [weak self] in
            guard let self else { return }
            let mine = self.state.withLock { state in
                guard state.resumeTicket == ticket else { return false }
                state.resumeTicket &+= 1
                return true
            }
            if mine { self.receiveNext() }
        }
        inbox.onRoom(resume)
        if inbox.hasRoom { resume() }
    }

    /// The task's `receive` failed: the peer closed (the task has its close code), the close
    /// this side started ended, or the connection failed.
    private func ended(by error: any Error) {
        let closing = state.withLock { state in
            defer { state.ended = true }
            return state.ended
        }
        finishClose(error: closing ? nil : error)
    }

    // MARK: Closing and pings

    /// Starts the close: sends the close frame through the task and fails the waiting sends and
    /// pings. Returns whether this call started it.
    @discardableResult
    private func closeLocally(_ code: WebSocket.CloseCode, reason: String) -> Bool {
        let waiters = state.withLock { state -> [CheckedContinuation<(any Error)?, Never>]? in
            guard !state.ended else { return nil }
            state.ended = true
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        guard let waiters else { return false }
        for waiter in waiters { waiter.resume(returning: WebSocketErrors.closed) }
        let reasonBytes = Self.closeReason(reason)
        task.cancel(
            with: URLSessionWebSocketTask.CloseCode(rawValue: Int(code.rawValue)) ?? .normalClosure,
            reason: reasonBytes.isEmpty ? nil : reasonBytes)
        return true
    }

    /// Ends the messages (once), with the peer's close code when the task has one, otherwise
    /// 1006; `error` is what failed the connection when this side did not close it.
    private func finishClose(error: (any Error)?) {
        let peerCode = task.closeCode
        let peerReason = task.closeReason
        let outcome = state.withLock { state -> (NetworkError?, [CheckedContinuation<(any Error)?, Never>], CheckedContinuation<Void, Never>?)? in
            guard !state.finished else { return nil }
            state.finished = true
            state.ended = true
            defer {
                state.waiters = [:]
                state.closeWaiter = nil
            }
            let waiters = Array(state.waiters.values)
            if peerCode != .invalid {
                state.closeCode = WebSocket.CloseCode(rawValue: UInt16(clamping: peerCode.rawValue))
                state.closeReason = peerReason.map { String(decoding: $0, as: UTF8.self) } ?? ""
                return (nil, waiters, state.closeWaiter)
            }
            guard let error else {
                state.closeCode = .abnormalClosure
                return (nil, waiters, state.closeWaiter)
            }
            if let posix = error as? POSIXError, posix.code == .EMSGSIZE {
                // The task refused a message past `maximumMessageSize` (and closes with 1009).
                state.closeCode = .messageTooBig
                return (NetworkError.responseTooLarge(limit: Int64(maximumMessageSize)), waiters, state.closeWaiter)
            }
            state.closeCode = .abnormalClosure
            let failure = NetworkError.connectionLost(
                reason: "the WebSocket connection ended without a close handshake (1006)", underlying: error)
            return (failure, waiters, state.closeWaiter)
        }
        guard let outcome else { return }
        let (failure, waiters, closeWaiter) = outcome
        for waiter in waiters { waiter.resume(returning: WebSocketErrors.closed) }
        if let failure { inbox.finish(throwing: failure) } else { inbox.finish() }
        closeWaiter?.resume()
    }

    /// `reason` as at most 123 bytes of UTF-8 (a close frame's limit), cut between characters.
    static func closeReason(_ reason: String) -> Data {
        var end = reason.startIndex
        var bytes = 0
        for character in reason {
            let size = character.utf8.count
            guard bytes + size <= 123 else { break }
            bytes += size
            end = reason.index(after: end)
        }
        return Data(reason[..<end].utf8)
    }

    /// Pings every `interval` while open (URLSession has no automatic ping).
    private func startPinging(every interval: Duration) {
        Task { [weak self] in
            while true {
                try await Task.sleep(for: interval)
                guard let self, !self.state.withLock({ $0.ended }) else { return }
                try? await self.ping()
            }
        }
    }

    /// Runs a completion-handler call and waits for its handler (called once by the task), for
    /// the connection to close or fail (``WebSocketErrors/closed``), or for cancellation of the
    /// waiting task (``NetworkError/cancelled``), whichever comes first.
    private func complete(_ start: (@escaping @Sendable ((any Error)?) -> Void) -> Void) async throws {
        let id = state.withLock { state in
            state.nextWaiter &+= 1
            return state.nextWaiter
        }
        @Sendable func finish(_ error: (any Error)?) {
            let continuation = state.withLock { $0.waiters.removeValue(forKey: id) }
            continuation?.resume(returning: error)
        }
        let error: (any Error)? = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let ended = state.withLock { state in
                    if !state.ended { state.waiters[id] = continuation }
                    return state.ended
                }
                if ended { return continuation.resume(returning: WebSocketErrors.closed) }
                if Task.isCancelled { return finish(NetworkError.cancelled) }
                start { error in finish(error) }
            }
        } onCancel: {
            finish(NetworkError.cancelled)
        }
        guard let error else { return }
        if let error = error as? NetworkError, error.code == .cancelled { throw error }
        if state.withLock({ $0.ended }) { throw WebSocketErrors.closed }
        throw NetworkError.connectionLost(reason: "the WebSocket task failed: \(error.localizedDescription)", underlying: error)
    }
}
