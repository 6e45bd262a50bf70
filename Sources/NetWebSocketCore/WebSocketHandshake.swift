import NetBase
import Foundation

/// The client side of the opening handshake (RFC 6455, section 4.1): the headers a request
/// carries, and the checks its answer must pass before the connection counts as a WebSocket.
package struct WebSocketHandshake: Sendable, Equatable {
    /// The GUID section 1.3 appends to the key before hashing.
    package static let guid = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

    /// `Sec-WebSocket-Key`: 16 secure random bytes in Base64, fresh per handshake.
    package let key: String
    /// The subprotocols offered, in order.
    package let subprotocols: [String]
    /// Whether permessage-deflate (RFC 7692) is offered.
    package let compression: Bool

    /// A handshake with a fresh key (or `key`, for tests).
    package init(subprotocols: [String], compression: Bool = false, key: String? = nil) {
        var generator = SystemRandomNumberGenerator()
        self.key = key ?? Data((0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) }).base64EncodedString()
        self.subprotocols = subprotocols
        self.compression = compression
    }

    /// The `Sec-WebSocket-Accept` a server that read `key` answers.
    package static func accept(for key: String) -> String {
        Data(WebSocketSHA1.hash(Array((key + guid).utf8))).base64EncodedString()
    }

    /// The headers that ask for the upgrade, set over `headers` (a target's own stay).
    package func requestHeaders(over headers: HTTPHeaders) -> HTTPHeaders {
        var result = headers
        result["Upgrade"] = "websocket"
        result["Connection"] = "Upgrade"
        result["Sec-WebSocket-Key"] = key
        result["Sec-WebSocket-Version"] = "13"
        result["Sec-WebSocket-Protocol"] = subprotocols.isEmpty ? nil : subprotocols.joined(separator: ", ")
        result["Sec-WebSocket-Extensions"] = compression ? WebSocketDeflateParameters.offer : nil
        return result
    }

    /// Checks a 101 answer (section 4.1, "the client MUST fail the connection if…") and returns
    /// the subprotocol the server chose, if any.
    /// - Throws: ``NetworkError/invalidResponse(reason:underlying:)`` naming the first check
    ///   that failed; the caller closes the socket.
    package func validate(status: Int, headers: HTTPHeaders) throws(NetworkError) -> String? {
        guard status == 101 else {
            throw .invalidResponse(reason: "the WebSocket handshake was answered with \(status), not 101 Switching Protocols")
        }
        guard headers["Upgrade"]?.lowercased() == "websocket" else {
            throw .invalidResponse(reason: "the WebSocket handshake's 101 has no 'Upgrade: websocket'")
        }
        let connection = (headers["Connection"] ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        guard connection.contains("upgrade") else {
            throw .invalidResponse(reason: "the WebSocket handshake's 101 has no 'Connection: Upgrade'")
        }
        guard headers["Sec-WebSocket-Accept"]?.trimmingCharacters(in: .whitespaces) == Self.accept(for: key) else {
            throw .invalidResponse(reason: "the WebSocket handshake's Sec-WebSocket-Accept does not match the key sent")
        }
        _ = try negotiatedCompression(headers: headers)
        guard let chosen = headers["Sec-WebSocket-Protocol"]?.trimmingCharacters(in: .whitespaces), !chosen.isEmpty else {
            return nil
        }
        guard subprotocols.contains(chosen) else {
            throw .invalidResponse(reason: "the server chose the WebSocket subprotocol '\(chosen)', which was not offered")
        }
        return chosen
    }

    /// The permessage-deflate parameters a 101's headers agree to, `nil` when the server
    /// declined (or nothing was offered).
    /// - Throws: ``NetworkError/invalidResponse(reason:underlying:)`` for an answer
    ///   ``WebSocketDeflateParameters/negotiate(answer:offered:)`` refuses.
    package func negotiatedCompression(headers: HTTPHeaders) throws(NetworkError) -> WebSocketDeflateParameters? {
        try WebSocketDeflateParameters.negotiate(answer: headers["Sec-WebSocket-Extensions"], offered: compression)
    }
}
