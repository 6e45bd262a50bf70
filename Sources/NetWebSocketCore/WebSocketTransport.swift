import NetBase
/// A transport that can open WebSockets: `CurlTransport`, ``WebSocketStubTransport``, and
/// `URLSessionTransport` on Apple platforms. `Provider.webSocket(_:configuration:)` answers a
/// transport without it with a clear ``NetworkError``.
package protocol WebSocketTransport: Transport {
    /// Connects, sends the handshake `request` (its headers already ask for the upgrade, see
    /// ``WebSocketHandshake/requestHeaders(over:)``) and checks the answer.
    /// - Returns: The open connection after a valid 101, or the server's other answer (its
    ///   body read within ``Request/limits``), which the pipeline validates like any response.
    /// - Throws: ``NetworkError``: a failed connection, TLS or proxy, the request's timeout,
    ///   or a 101 that fails ``WebSocketHandshake/validate(status:headers:)``.
    func openWebSocket(
        _ request: Request, handshake: WebSocketHandshake, configuration: WebSocketConfiguration
    ) async throws -> WebSocketOpening
}

/// How a transport's handshake ended.
package enum WebSocketOpening: Sendable {
    /// A valid 101: the connection is open.
    case upgraded(Response, subprotocol: String?, connection: any InboxBackedWebSocketConnection)
    /// Another answer (a 401, a redirect, a 200): no WebSocket; the pipeline decides.
    case answered(Response)

    /// The server's answer.
    package var response: Response {
        switch self {
        case .upgraded(let response, _, _), .answered(let response): response
        }
    }
}
