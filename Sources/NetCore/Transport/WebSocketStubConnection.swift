import NetWebSocketCore
import NetToolbox
import NetBase
import Foundation

/// The in-memory connection of ``WebSocketStubTransport``: two inboxes, one per direction, and
/// the close codes each side sent.
final class WebSocketStubConnection: InboxBackedWebSocketConnection {
    private struct State {
        var closed = false
        var closeCode: WebSocket.CloseCode?
        var closeReason: String?
        var clientCloseCode: WebSocket.CloseCode?
    }

    /// Messages for the client.
    let inbox: WebSocketInbox
    /// Messages the client sent, for the peer.
    let sent: WebSocketInbox
    private let state = Locked(State())

    init(capacity: Int) {
        inbox = WebSocketInbox(capacity: capacity)
        sent = WebSocketInbox(capacity: capacity)
    }

    func send(_ message: WebSocket.Message) async throws {
        guard !state.withLock({ $0.closed }) else { throw WebSocketErrors.closed }
        sent.yield(message)
    }

    func ping() async throws {
        guard !state.withLock({ $0.closed }) else { throw WebSocketErrors.closed }
    }

    func close(_ code: WebSocket.CloseCode, reason: String) async {
        let wasOpen = state.withLock { state in
            defer { state.closed = true }
            guard !state.closed else { return false }
            state.clientCloseCode = code
            state.closeCode = code
            state.closeReason = ""
            return true
        }
        guard wasOpen else { return }
        sent.finish()
        inbox.finish()
    }

    func abandon() {
        Task { await close(.goingAway, reason: "") }
    }

    var closeCode: WebSocket.CloseCode? { state.withLock { $0.closeCode } }
    var closeReason: String? { state.withLock { $0.closeReason } }
    var clientCloseCode: WebSocket.CloseCode? { state.withLock { $0.clientCloseCode } }

    /// The peer closed: the client's messages end after those already sent.
    func peerClosed(_ code: WebSocket.CloseCode, reason: String) {
        let wasOpen = state.withLock { state in
            defer { state.closed = true }
            guard !state.closed else { return false }
            (state.closeCode, state.closeReason, state.clientCloseCode) = (code, reason, code)
            return true
        }
        guard wasOpen else { return }
        sent.finish()
        inbox.finish()
    }

    /// The peer's script failed: the client's messages throw `error`.
    func peerFailed(_ error: NetworkError) {
        state.withLock { state in
            guard !state.closed else { return }
            state.closed = true
            state.closeCode = .abnormalClosure
        }
        sent.finish()
        inbox.finish(throwing: error)
    }
}
