#if canImport(CCurl)
    import NetWebSocketCore
    import Foundation
    @testable import NetBase
    @testable import NetCurl
    import Testing

    /// Messages whose deflate data holds a final block (BFINAL): RFC 7692 (section 7.2.3.3) lets a
    /// peer end a message that way, so the stream ends inside a message and what follows it
    /// (in the message or the next one) is read by a fresh stream.
    @Suite("Curl WebSocket permessage-deflate final blocks")
    struct CurlWebSocketDeflateStreamEndTests {
        typealias Deflate = CurlWebSocketDeflate

        /// RFC 7692 section 7.2.3.3: "Hello" in one fixed-Huffman block with BFINAL set.
        static let finalHello: [UInt8] = [0xF3, 0x48, 0xCD, 0xC9, 0xC9, 0x07, 0x00]

        func inflated(_ payload: [UInt8], by reader: Deflate) throws(WebSocketProtocolViolation) -> String {
            var output: [UInt8] = []
            try reader.inflate(payload, isFinal: true, limit: 1 << 20, into: &output)
            return String(decoding: output, as: UTF8.self)
        }

        /// `text` sync-flushed by a fresh compressor, the tail removed (as a normal peer sends it).
        static func flushed(_ text: String) throws -> [UInt8] {
            try #require(Deflate(WebSocketDeflateParameters(clientNoContextTakeover: true)).compress(Array(text.utf8)))
        }

        @Test(
            "The RFC's final-block example arrives twice over the kept context, with or without its trailing empty block",
            arguments: [finalHello, finalHello + [0x00]])
        func rfcExampleTwice(payload: [UInt8]) throws {
            let reader = Deflate(WebSocketDeflateParameters())
            #expect(try inflated(payload, by: reader) == "Hello")
            #expect(try inflated(payload, by: reader) == "Hello")
            #expect(try inflated(Self.flushed("and then a flushed one"), by: reader) == "and then a flushed one")
        }

        @Test("A peer that ends every message with Z_FINISH (a final block) is read message after message")
        func finishedMessages() throws {
            let reader = Deflate(WebSocketDeflateParameters())
            // zlib's Z_FINISH output for "Hello, Hello, Hello" (a final fixed block with a back-reference).
            let finished: [UInt8] = [0xF3, 0x48, 0xCD, 0xC9, 0xC9, 0xD7, 0x51, 0xF0, 0x40, 0xA2, 0x00]
            for _ in 0..<3 { #expect(try inflated(finished, by: reader) == "Hello, Hello, Hello") }
        }

        @Test("Data after a final block in the same message is inflated by a fresh stream, not dropped")
        func dataAfterFinalBlock() throws {
            let reader = Deflate(WebSocketDeflateParameters())
            #expect(try inflated(Self.finalHello + Self.flushed(" world"), by: reader) == "Hello world")
            #expect(try inflated(Self.flushed("next"), by: reader) == "next")
        }

        @Test("A final block split across frames, its message ending in an empty frame, is read whole")
        func finalBlockAcrossFrames() throws {
            let reader = Deflate(WebSocketDeflateParameters())
            var output: [UInt8] = []
            try reader.inflate(Array(Self.finalHello[..<3]), isFinal: false, limit: 100, into: &output)
            try reader.inflate(Array(Self.finalHello[3...]), isFinal: false, limit: 100, into: &output)
            try reader.inflate([], isFinal: true, limit: 100, into: &output)
            #expect(String(decoding: output, as: UTF8.self) == "Hello")
            #expect(try inflated(Self.finalHello, by: reader) == "Hello")
        }

        @Test("A message cut inside a deflate block fails with 1007 rather than leaving the stream mid-block")
        func truncatedBlock() throws {
            let reader = Deflate(WebSocketDeflateParameters())
            // A stored block announcing 10 bytes that brings 2 (and the 4 of the appended tail).
            #expect {
                _ = try inflated([0x00, 0x0A, 0x00, 0xF5, 0xFF, 0x48, 0x65], by: reader)
            } throws: { error in
                guard let violation = error as? WebSocketProtocolViolation else { return false }
                return violation.code == .invalidFramePayloadData && violation.reason.contains("inside a deflate block")
            }
        }

        @Test("zlib's own failures are internal errors (1011); bad data is 1007")
        func errorCodes() {
            // zlib.h: Z_DATA_ERROR -3, Z_NEED_DICT 2; Z_MEM_ERROR -4, Z_STREAM_ERROR -2, Z_BUF_ERROR -5.
            for code: Int32 in [-3, 2] { #expect(Deflate.violation(zlibCode: code).code == .invalidFramePayloadData) }
            for code: Int32 in [-4, -2, -5] { #expect(Deflate.violation(zlibCode: code).code == .internalServerError) }
        }
    }
#endif
