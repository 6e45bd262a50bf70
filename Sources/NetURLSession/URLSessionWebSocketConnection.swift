#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import Foundation
import NetBase

/// A ``WebSocketConnection`` over a `URLSessionWebSocketTask` (through ``WebSocketTaskAPI``):
/// the task frames, masks, validates and answers pings; this adapter reads its messages into
/// the ``WebSocketInbox`` with back-pressure (no `receive` while the inbox is full), maps its
/// errors to ``NetworkError``s and its close codes to ``WebSocket/CloseCode``.
///
/// URLSession runs the close handshake itself: ``close(_:reason:)`` sends the close frame and
/// ends the connection at once (the peer's answer is not awaited); ``closeCode`` is the peer's
/// code when the task reports one, otherwise the code sent.
final class URLSessionWebSocketConnection: WebSocketConnection {
    private struct State {
        var ended = false
        var closeCode: WebSocket.CloseCode?
        var closeReason: String?
        /// Bumped per back-pressure wait, so only the latest wait resumes reading, once.
        var resumeTicket: UInt64 = 0
    }

    let inbox: WebSocketInbox
    private let task: any WebSocketTaskAPI
    private let state = Locked(State())
    private let maximumMessageSize: Int

    init(task: any WebSocketTaskAPI, configuration: WebSocketConfiguration) {
        self.task = task
        maximumMessageSize = configuration.effectiveMaximumMessageSize
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
        closeLocally(code, reason: reason)
    }

    func abandon() {
        closeLocally(.goingAway, reason: "")
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

    /// The task's `receive` failed: the peer closed (the task has its close code), or the
    /// connection failed.
    private func ended(by error: any Error) {
        let peerCode = task.closeCode
        let failure: NetworkError? = state.withLock { state in
            guard !state.ended else { return nil }
            state.ended = true
            if peerCode != .invalid {
                state.closeCode = WebSocket.CloseCode(rawValue: UInt16(clamping: peerCode.rawValue))
                state.closeReason = task.closeReason.map { String(decoding: $0, as: UTF8.self) } ?? ""
                return nil
            }
            if let posix = error as? POSIXError, posix.code == .EMSGSIZE {
                // The task refused a message past `maximumMessageSize` (and closes with 1009).
                state.closeCode = .messageTooBig
                return NetworkError.responseTooLarge(limit: Int64(maximumMessageSize))
            }
            state.closeCode = .abnormalClosure
            return NetworkError.connectionLost(
                reason: "the WebSocket connection ended without a close handshake (1006)", underlying: error)
        }
        if let failure {
            inbox.finish(throwing: failure)
        } else {
            inbox.finish()
        }
    }

    // MARK: Closing and pings

    private func closeLocally(_ code: WebSocket.CloseCode, reason: String) {
        let wasOpen = state.withLock { state in
            guard !state.ended else { return false }
            state.ended = true
            return true
        }
        guard wasOpen else { return }
        let reasonBytes = Data(reason.utf8.prefix(123))
        task.cancel(
            with: URLSessionWebSocketTask.CloseCode(rawValue: Int(code.rawValue)) ?? .normalClosure,
            reason: reasonBytes.isEmpty ? nil : reasonBytes)
        let peerCode = task.closeCode
        state.withLock { state in
            if peerCode != .invalid {
                state.closeCode = WebSocket.CloseCode(rawValue: UInt16(clamping: peerCode.rawValue))
                state.closeReason = task.closeReason.map { String(decoding: $0, as: UTF8.self) } ?? ""
            } else {
                state.closeCode = code
                state.closeReason = reason
            }
        }
        inbox.finish()
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

    /// Runs a completion-handler call and waits for its handler (called once by the task);
    /// cancelling the waiting task ends the wait with ``NetworkError/cancelled``.
    private func complete(_ start: (@escaping @Sendable ((any Error)?) -> Void) -> Void) async throws {
        let waiter = Locked<CheckedContinuation<(any Error)?, Never>?>(nil)
        @Sendable func finish(_ error: (any Error)?) {
            let continuation = waiter.withLock { waiting in
                defer { waiting = nil }
                return waiting
            }
            continuation?.resume(returning: error)
        }
        let error: (any Error)? = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                waiter.withLock { $0 = continuation }
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
