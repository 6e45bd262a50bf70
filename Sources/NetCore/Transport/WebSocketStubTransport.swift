import NetWebSocketCore
import NetBase
import Foundation

/// A transport for unit tests of code that uses WebSockets: each handshake is answered by a
/// script, and an upgraded connection talks to a ``WebSocketStubPeer`` your conversation drives,
/// without a network. Every plugin hook runs on the handshake as it would on a real one.
///
/// ```swift
/// let transport = WebSocketStubTransport { peer in
///     while let message = try await peer.receive() {   // what the client sent
///         peer.send(message)                            // echoed back
///     }
/// }
/// let provider = Provider<Chat>(transport: transport)
/// let socket = try await provider.webSocket(.room("swift"))
/// ```
///
/// Plain requests (``send(_:progress:)``) go to `http`.
public struct WebSocketStubTransport: WebSocketTransport {
    /// What the stub claims to support (those of `http`).
    public var capabilities: TransportCapabilities { http.capabilities }
    private let http: any Transport
    private let subprotocol: String?
    private let answer: @Sendable (Request) async throws -> Response?
    private let conversation: @Sendable (WebSocketStubPeer) async throws -> Void

    /// Creates a stub.
    /// - Parameters:
    ///   - http: Answers plain requests. Default: a ``StubTransport``.
    ///   - subprotocol: The subprotocol the stub's 101 chooses (it must be one the client offers).
    ///   - answer: Answers a handshake with a response of your own (a 401, say) instead of the
    ///     101, or `nil` (the default) to upgrade. A thrown error is the transport's failure.
    ///   - conversation: The peer's side of each upgraded connection, run in a task of its own.
    ///     When it returns the peer closes with 1000 (unless closed already); when it throws,
    ///     the client's ``WebSocket/messages`` throws the error (as a ``NetworkError``).
    public init(
        http: any Transport = StubTransport(), subprotocol: String? = nil,
        answer: @escaping @Sendable (Request) async throws -> Response? = { _ in nil },
        conversation: @escaping @Sendable (WebSocketStubPeer) async throws -> Void
    ) {
        self.http = http
        self.subprotocol = subprotocol
        self.answer = answer
        self.conversation = conversation
    }

    /// Sends a plain request through `http`.
    public func send(_ request: Request, progress: ProgressHandler?) async throws -> Response {
        try await http.send(request, progress: progress)
    }

    package func openWebSocket(
        _ request: Request, handshake: WebSocketHandshake, configuration: WebSocketConfiguration
    ) async throws -> WebSocketOpening {
        if let response = try await answer(request) { return .answered(response) }
        var headers: HTTPHeaders = [
            "Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Accept": WebSocketHandshake.accept(for: handshake.key),
        ]
        headers["Sec-WebSocket-Protocol"] = subprotocol
        let response = Response(statusCode: 101, headers: headers, data: Data(), request: request)
        let chosen = try handshake.validate(status: 101, headers: headers)
        let connection = WebSocketStubConnection(capacity: max(configuration.effectiveMaximumMessageSize, 1))
        let peer = WebSocketStubPeer(request: request, connection: connection)
        let conversation = self.conversation
        Task {
            do {
                try await conversation(peer)
                peer.close()
            } catch {
                connection.peerFailed(NetworkError(error))
            }
        }
        return .upgraded(response, subprotocol: chosen, connection: connection)
    }
}

/// The server's side of a ``WebSocketStubTransport`` connection, for a test's conversation.
public final class WebSocketStubPeer: Sendable {
    /// The handshake request as the client sent it (after every plugin's `prepare`).
    public let request: Request
    private let connection: WebSocketStubConnection

    init(request: Request, connection: WebSocketStubConnection) {
        self.request = request
        self.connection = connection
    }

    /// Sends `message` to the client (ignored once closed).
    public func send(_ message: WebSocket.Message) {
        connection.inbox.yield(message)
    }

    /// The next message the client sent, or `nil` once the client closed.
    public func receive() async throws -> WebSocket.Message? {
        try await connection.sent.next()
    }

    /// Closes the connection from the server's side with `code` and `reason`.
    public func close(_ code: WebSocket.CloseCode = .normalClosure, reason: String = "") {
        connection.peerClosed(code, reason: reason)
    }

    /// The code of the client's close frame, once it closed.
    public var clientCloseCode: WebSocket.CloseCode? { connection.clientCloseCode }
}
