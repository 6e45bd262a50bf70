@testable import NetWebSocketCore
import Foundation
import Testing

import NetBase

/// permessage-deflate's negotiation (RFC 7692, sections 5 and 7.1): the offer, and the strict
/// reading of the server's `Sec-WebSocket-Extensions` answer.
@Suite("WebSocket permessage-deflate negotiation")
struct WebSocketDeflateNegotiationTests {
    typealias Parameters = WebSocketDeflateParameters

    /// The reason `answer` is refused with, or `nil` when it is accepted.
    func refusal(_ answer: String, offered: Bool = true) -> String? {
        do {
            _ = try Parameters.negotiate(answer: answer, offered: offered)
            return nil
        } catch {
            guard case .invalidResponse(let reason, _) = error else { return "unexpected \(error)" }
            return reason
        }
    }

    @Test("The request offers permessage-deflate with client_max_window_bits only when compression is on")
    func offer() {
        let on = WebSocketHandshake(subprotocols: [], compression: true).requestHeaders(over: [:])
        #expect(on["Sec-WebSocket-Extensions"] == "permessage-deflate; client_max_window_bits")
        #expect(WebSocketHandshake(subprotocols: []).requestHeaders(over: [:])["Sec-WebSocket-Extensions"] == nil)
    }

    @Test("No answer, or an empty one, means the server declined")
    func declined() throws {
        #expect(try Parameters.negotiate(answer: nil, offered: true) == nil)
        #expect(try Parameters.negotiate(answer: "  ", offered: true) == nil)
        #expect(try Parameters.negotiate(answer: nil, offered: false) == nil)
    }

    @Test("A bare answer takes the defaults: context takeover both ways, 15-bit windows")
    func bareAnswer() throws {
        #expect(try Parameters.negotiate(answer: "permessage-deflate", offered: true) == Parameters())
        #expect(try Parameters.negotiate(answer: "Permessage-Deflate", offered: true) == Parameters())
    }

    @Test("Every parameter is read, in any order, quoted values too")
    func everyParameter() throws {
        let answer = "permessage-deflate; client_max_window_bits=\"10\"; server_no_context_takeover;client_no_context_takeover; server_max_window_bits=9"
        let parameters = try Parameters.negotiate(answer: answer, offered: true)
        #expect(
            parameters
                == Parameters(serverNoContextTakeover: true, clientNoContextTakeover: true, serverMaxWindowBits: 9, clientMaxWindowBits: 10))
    }

    @Test("permessage-deflate answered when it was not offered fails the handshake")
    func notOffered() {
        #expect(refusal("permessage-deflate", offered: false)?.contains("'permessage-deflate', which was not offered") == true)
    }

    @Test("An extension that was never offered fails the handshake, alone or beside permessage-deflate")
    func otherExtension() {
        #expect(refusal("x-webkit-deflate-frame")?.contains("'x-webkit-deflate-frame', which was not offered") == true)
        #expect(refusal("permessage-deflate, mux")?.contains("'mux', which was not offered") == true)
    }

    @Test("permessage-deflate answered twice fails the handshake")
    func answeredTwice() {
        #expect(refusal("permessage-deflate, permessage-deflate; server_no_context_takeover")?.contains("more than once") == true)
    }

    @Test("A parameter given twice fails the handshake naming it")
    func duplicateParameter() {
        #expect(refusal("permessage-deflate; server_no_context_takeover; server_no_context_takeover")?.contains("'server_no_context_takeover' twice") == true)
        #expect(refusal("permessage-deflate; server_max_window_bits=10; server_max_window_bits=11")?.contains("twice") == true)
    }

    @Test(
        "A window size outside 8...15, missing, or not plain decimal fails the handshake",
        arguments: ["7", "16", "0", "09", "-9", "1O", "", "999999999999999999999"])
    func badWindowBits(value: String) {
        #expect(refusal("permessage-deflate; server_max_window_bits=\(value)")?.contains("not a window size of 8 to 15 bits") == true)
        #expect(refusal("permessage-deflate; client_max_window_bits=\(value)")?.contains("'client_max_window_bits'") == true)
    }

    @Test("A window size parameter without a value fails the handshake (the offer's bare form is not an answer)")
    func windowBitsWithoutValue() {
        #expect(refusal("permessage-deflate; client_max_window_bits")?.contains("has no value") == true)
        #expect(refusal("permessage-deflate; server_max_window_bits")?.contains("has no value") == true)
    }

    @Test("A value on a no_context_takeover parameter fails the handshake")
    func valueOnFlag() {
        #expect(refusal("permessage-deflate; client_no_context_takeover=1")?.contains("takes no value") == true)
        #expect(refusal("permessage-deflate; server_no_context_takeover=\"\"")?.contains("takes no value") == true)
    }

    @Test("An unknown parameter fails the handshake naming it")
    func unknownParameter() {
        #expect(refusal("permessage-deflate; mystery=1")?.contains("unknown parameter 'mystery'") == true)
    }

    @Test("The handshake's validation applies the same strict reading")
    func handshakeValidation() throws {
        let handshake = WebSocketHandshake(subprotocols: [], compression: true, key: "dGhlIHNhbXBsZSBub25jZQ==")
        var headers: HTTPHeaders = ["Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Accept": "s3pPLMBiTxaQ9kYGzzhZRbK+xOo="]
        headers["Sec-WebSocket-Extensions"] = "permessage-deflate; server_max_window_bits=12"
        #expect(try handshake.validate(status: 101, headers: headers) == nil)
        #expect(try handshake.negotiatedCompression(headers: headers) == Parameters(serverMaxWindowBits: 12))
        headers["Sec-WebSocket-Extensions"] = "permessage-deflate; server_max_window_bits=7"
        #expect(throws: NetworkError.self) { try handshake.validate(status: 101, headers: headers) }
    }
}
