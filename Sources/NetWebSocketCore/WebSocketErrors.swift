import NetBase
/// The errors WebSocket connections share across transports.
package enum WebSocketErrors {
    /// A send, ping or close after the connection closed or failed.
    package static let closed = NetworkError.transport(reason: "the WebSocket is closing or closed; nothing was sent")

    /// A read of a WebSocket's messages while another task was already waiting for the next one.
    package static let concurrentRead = NetworkError.transport(
        reason: "another task is already reading this WebSocket's messages; read them from one task at a time")

    /// The peer ended the byte stream (or it failed) before the close handshake.
    package static let lost = NetworkError.connectionLost(reason: "the WebSocket connection ended without a close handshake (1006)")

    /// The error a failed connection's messages throw.
    package static func error(for failure: WebSocketConnectionStateMachine.Failure, limit: Int) -> NetworkError {
        switch failure {
        case .violation(let violation): violation.networkError(limit: limit)
        case .connectionLost: lost
        }
    }
}
