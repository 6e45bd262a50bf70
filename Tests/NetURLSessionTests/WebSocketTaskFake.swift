#if canImport(FoundationNetworking)
    import NetToolbox
    import FoundationNetworking
#endif
import Foundation

@testable import NetBase
@testable import NetURLSession

/// A scripted `URLSessionWebSocketTask` for the adapter's tests: the handshake's answer is set
/// up front, the peer's messages are pushed by the test, and every call is recorded.
final class WebSocketTaskFake: WebSocketTaskAPI {
    struct PeerClosed: Error {}
    struct Cancelled: Error {}

    /// How the fake answers a ping.
    enum Pongs: Sendable {
        /// Its handler runs once (with the open error, if any).
        case once
        /// Its handler runs twice, as URLSession's may when the connection drops.
        case twice
        /// Its handler never runs, as URLSession's may when the task is cancelled.
        case never
    }

    private struct State {
        var response: URLResponse?
        var openError: (any Error)?
        var resumed = false
        var sent: [URLSessionWebSocketTask.Message] = []
        var pending: [URLSessionWebSocketTask.Message] = []
        var receiver: (@Sendable (Result<URLSessionWebSocketTask.Message, any Error>) -> Void)?
        var closeCode: URLSessionWebSocketTask.CloseCode = .invalid
        var closeReason: Data?
        var cancelledWith: (URLSessionWebSocketTask.CloseCode, Data?)?
        var maximumMessageSize = 1 << 20
        var pings = 0
        var pongs = Pongs.once
        /// Whether the peer answers the client's close with the same code.
        var echoesClose = true
        /// Whether sends complete (or wait forever, as on a stalled connection).
        var completesSends = true
    }

    private let state: Locked<State>

    /// A task whose handshake gets `status` with `headers`, or fails with `openError`.
    init(
        status: Int? = 101, headers: [String: String] = [:], openError: (any Error)? = nil, pongs: Pongs = .once,
        echoesClose: Bool = true
    ) {
        let url = URL(string: "https://chat.example.com/room")!
        let response = status.flatMap { HTTPURLResponse(url: url, statusCode: $0, httpVersion: "HTTP/1.1", headerFields: headers) }
        state = Locked(State(response: response, openError: openError, pongs: pongs, echoesClose: echoesClose))
    }

    /// From now on, pings are answered as `pongs` says and sends complete or not.
    func behave(pongs: Pongs, completesSends: Bool = true) {
        state.withLock { state in
            state.pongs = pongs
            state.completesSends = completesSends
        }
    }

    var response: URLResponse? { state.withLock { $0.response } }
    var closeCode: URLSessionWebSocketTask.CloseCode { state.withLock { $0.closeCode } }
    var closeReason: Data? { state.withLock { $0.closeReason } }
    var maximumMessageSize: Int {
        get { state.withLock { $0.maximumMessageSize } }
        set { state.withLock { $0.maximumMessageSize = newValue } }
    }

    func resume() { state.withLock { $0.resumed = true } }

    func send(_ message: URLSessionWebSocketTask.Message, completionHandler: @escaping @Sendable ((any Error)?) -> Void) {
        let (refused, completes) = state.withLock { state -> (Bool, Bool) in
            guard state.cancelledWith == nil else { return (true, true) }
            state.sent.append(message)
            return (false, state.completesSends)
        }
        if completes { completionHandler(refused ? Cancelled() : nil) }
    }

    func receive(completionHandler: @escaping @Sendable (Result<URLSessionWebSocketTask.Message, any Error>) -> Void) {
        let ready = state.withLock { state -> Result<URLSessionWebSocketTask.Message, any Error>? in
            if !state.pending.isEmpty { return .success(state.pending.removeFirst()) }
            if state.closeCode != .invalid || state.cancelledWith != nil { return .failure(PeerClosed()) }
            state.receiver = completionHandler
            return nil
        }
        if let ready { completionHandler(ready) }
    }

    func sendPing(pongReceiveHandler: @escaping @Sendable ((any Error)?) -> Void) {
        let (error, pongs) = state.withLock { state -> ((any Error)?, Pongs) in
            state.pings += 1
            return (state.cancelledWith == nil ? state.openError : Cancelled(), state.pongs)
        }
        switch pongs {
        case .once: pongReceiveHandler(error)
        case .twice:
            pongReceiveHandler(error)
            pongReceiveHandler(PeerClosed())
        case .never: break
        }
    }

    func cancel(with closeCode: URLSessionWebSocketTask.CloseCode, reason: Data?) {
        let receiver = state.withLock { state in
            state.cancelledWith = state.cancelledWith ?? (closeCode, reason)
            if state.echoesClose, state.closeCode == .invalid {
                state.closeCode = closeCode
                state.closeReason = reason
            }
            defer { state.receiver = nil }
            return state.receiver
        }
        receiver?(.failure(Cancelled()))
    }

    // MARK: The test's side

    /// The peer sends `message`.
    func push(_ message: URLSessionWebSocketTask.Message) {
        let receiver = state.withLock { state in
            guard let receiver = state.receiver else {
                state.pending.append(message)
                return nil as (@Sendable (Result<URLSessionWebSocketTask.Message, any Error>) -> Void)?
            }
            state.receiver = nil
            return receiver
        }
        receiver?(.success(message))
    }

    /// The peer closes with `code` and `reason`, or the connection drops (`code` `.invalid`)
    /// and the pending `receive` fails with `error`.
    func end(_ code: URLSessionWebSocketTask.CloseCode, reason: String? = nil, error: any Error = PeerClosed()) {
        let receiver = state.withLock { state in
            state.closeCode = code
            state.closeReason = reason.map { Data($0.utf8) }
            defer { state.receiver = nil }
            return state.receiver
        }
        receiver?(.failure(error))
    }

    /// What the client sent, as NetKit messages (the task's own type is not `Equatable`).
    var sentMessages: [WebSocket.Message] {
        state.withLock { $0.sent }.map { message in
            switch message {
            case .string(let text): .text(text)
            case .data(let data): .binary(data)
            @unknown default: .binary(Data())
            }
        }
    }
    var pingCount: Int { state.withLock { $0.pings } }
    var isReceiving: Bool { state.withLock { $0.receiver != nil } }
    var wasResumed: Bool { state.withLock { $0.resumed } }
    var cancelledWith: (code: URLSessionWebSocketTask.CloseCode, reason: Data?)? { state.withLock { $0.cancelledWith } }
}
