import NetBase
/// Why a peer's bytes fail the connection, with the close code RFC 6455 requires for it.
package struct WebSocketProtocolViolation: Error, Sendable, Equatable {
    /// The code sent in the close frame that fails the connection.
    package var code: WebSocket.CloseCode
    /// What the peer did, for the ``NetworkError``.
    package var reason: String

    package init(_ code: WebSocket.CloseCode, _ reason: String) {
        self.code = code
        self.reason = reason
    }

    /// The error a caller sees: 1009 is ``NetworkError/responseTooLarge(limit:)``, every other
    /// violation ``NetworkError/invalidResponse(reason:underlying:)`` naming the problem.
    package func networkError(limit: Int) -> NetworkError {
        if code == .messageTooBig { return .responseTooLarge(limit: Int64(limit)) }
        return .invalidResponse(reason: "WebSocket peer violated RFC 6455: \(reason) (closed with \(code))")
    }
}
