@testable import NetWebSocketCore
import NetToolbox
import Foundation
import Testing

import NetBase

/// The SHA-1 the handshake uses, against FIPS 180 and RFC 3174 test vectors and RFC 6455's example.
@Suite("WebSocket SHA-1 and handshake keys")
struct WebSocketSHA1Tests {
    func hex(_ string: String) -> String {
        SHA256.hexString(WebSocketSHA1.hash(Array(string.utf8)))
    }

    @Test("SHA-1 matches the FIPS 180 vectors for the empty string, 'abc' and the two-block message")
    func fipsVectors() {
        #expect(hex("") == "da39a3ee5e6b4b0d3255bfef95601890afd80709")
        #expect(hex("abc") == "a9993e364706816aba3e25717850c26c9cd0d89d")
        #expect(hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") == "84983e441c3bd26ebaae4aa1f95129e5e54670f1")
    }

    @Test("SHA-1 of a million 'a's matches RFC 3174's third vector")
    func millionAs() {
        #expect(SHA256.hexString(WebSocketSHA1.hash([UInt8](repeating: 0x61, count: 1_000_000))) == "34aa973cd4c4daa4f61eeb2bdbad27316534016f")
    }

    @Test("Messages of 55, 56 and 64 bytes pad across the block boundary correctly")
    func paddingBoundaries() {
        #expect(hex(String(repeating: "a", count: 55)) == "c1c8bbdc22796e28c0e15163d20899b65621d65a")
        #expect(hex(String(repeating: "a", count: 56)) == "c2db330f6083854c99d4b5bfb6e8f29f201be699")
        #expect(hex(String(repeating: "a", count: 64)) == "0098ba824b5c16427bd7a1122a5a442a25ec644d")
    }

    @Test("The accept value of RFC 6455's sample key is the one section 1.3 gives")
    func rfcSampleAccept() {
        #expect(WebSocketHandshake.accept(for: "dGhlIHNhbXBsZSBub25jZQ==") == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
    }

    @Test("Each handshake draws a fresh 16-byte key")
    func freshKeys() {
        let first = WebSocketHandshake(subprotocols: [])
        let second = WebSocketHandshake(subprotocols: [])
        #expect(first.key != second.key)
        #expect(Data(base64Encoded: first.key)?.count == 16)
    }
}
