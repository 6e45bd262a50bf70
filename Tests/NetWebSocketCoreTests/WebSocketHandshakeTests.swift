@testable import NetWebSocketCore
import Foundation
import Testing

import NetBase

/// The client's checks of the server's answer to the opening handshake (RFC 6455, section 4.1).
@Suite("WebSocket handshake checks")
struct WebSocketHandshakeTests {
    let handshake = WebSocketHandshake(subprotocols: ["chat", "superchat"], key: "dGhlIHNhbXBsZSBub25jZQ==")

    func answer(_ changes: [String: String?] = [:]) -> HTTPHeaders {
        var headers: HTTPHeaders = [
            "Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Accept": "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=",
        ]
        for (name, value) in changes { headers[name] = value }
        return headers
    }

    func reason(_ status: Int, _ headers: HTTPHeaders) -> String? {
        do {
            _ = try handshake.validate(status: status, headers: headers)
            return nil
        } catch {
            guard case .invalidResponse(let reason, _) = error else { return "unexpected \(error)" }
            return reason
        }
    }

    @Test("The request asks for version 13 with the key, the upgrade and the offered subprotocols")
    func requestHeaders() {
        let headers = handshake.requestHeaders(over: ["Authorization": "Bearer t"])
        #expect(headers["Upgrade"] == "websocket")
        #expect(headers["Connection"] == "Upgrade")
        #expect(headers["Sec-WebSocket-Version"] == "13")
        #expect(headers["Sec-WebSocket-Key"] == "dGhlIHNhbXBsZSBub25jZQ==")
        #expect(headers["Sec-WebSocket-Protocol"] == "chat, superchat")
        #expect(headers["Authorization"] == "Bearer t")
        #expect(WebSocketHandshake(subprotocols: []).requestHeaders(over: [:])["Sec-WebSocket-Protocol"] == nil)
    }

    @Test("A correct 101 passes, with or without an offered subprotocol")
    func correctAnswer() throws {
        #expect(try handshake.validate(status: 101, headers: answer()) == nil)
        #expect(try handshake.validate(status: 101, headers: answer(["Sec-WebSocket-Protocol": "superchat"])) == "superchat")
        #expect(try handshake.validate(status: 101, headers: answer(["Upgrade": "WebSocket", "Connection": "keep-alive, upgrade"])) == nil)
    }

    @Test("A 200 instead of 101 fails the handshake naming the status")
    func notSwitching() {
        #expect(reason(200, answer())?.contains("200, not 101") == true)
    }

    @Test("A wrong Sec-WebSocket-Accept fails the handshake")
    func wrongAccept() {
        #expect(reason(101, answer(["Sec-WebSocket-Accept": "AAAAAAAAAAAAAAAAAAAAAAAAAAA="]))?.contains("Sec-WebSocket-Accept") == true)
        #expect(reason(101, answer(["Sec-WebSocket-Accept": nil]))?.contains("Sec-WebSocket-Accept") == true)
    }

    @Test("A missing Upgrade or Connection header fails the handshake")
    func missingUpgrade() {
        #expect(reason(101, answer(["Upgrade": nil]))?.contains("Upgrade: websocket") == true)
        #expect(reason(101, answer(["Connection": "keep-alive"]))?.contains("Connection: Upgrade") == true)
    }

    @Test("A subprotocol or an extension that was not offered fails the handshake")
    func unoffered() {
        #expect(reason(101, answer(["Sec-WebSocket-Protocol": "mqtt"]))?.contains("'mqtt', which was not offered") == true)
        #expect(reason(101, answer(["Sec-WebSocket-Extensions": "permessage-deflate"]))?.contains("extension") == true)
    }
}
