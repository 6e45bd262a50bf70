#if canImport(CCurl)
    import NetWebSocketCore
    import Foundation
    @testable import NetBase
    @testable import NetCurl
    import Testing

    /// zlib's permessage-deflate (RFC 7692, section 7.2) for the curl WebSocket, without a
    /// server: one codec's messages are read by another's inflater, as a peer would.
    @Suite("Curl WebSocket permessage-deflate codec")
    struct CurlWebSocketDeflateTests {
        typealias Deflate = CurlWebSocketDeflate

        /// Bytes that compress a little but not to nothing (a repeating counter with noise).
        static func sample(_ count: Int) -> [UInt8] {
            var state: UInt32 = 0x1234_5678
            return (0..<count).map { index in
                state = state &* 1_664_525 &+ 1_013_904_223
                return index % 7 == 0 ? UInt8(truncatingIfNeeded: state >> 24) : UInt8(truncatingIfNeeded: index / 7)
            }
        }

        func inflated(_ payload: [UInt8], by reader: Deflate, limit: Int = 1 << 26) throws(WebSocketProtocolViolation) -> [UInt8] {
            var output: [UInt8] = []
            try reader.inflate(payload, isFinal: true, limit: limit, into: &output)
            return output
        }

        @Test(
            "Messages of every size around the 64 KiB chunk survive compression and inflation",
            arguments: [1, 125, 65535, 65536, 65537, 3 * 65536 + 1, 1 << 20])
        func roundTrip(size: Int) throws {
            let writer = Deflate(WebSocketDeflateParameters())
            let reader = Deflate(WebSocketDeflateParameters())
            let message = Self.sample(size)
            let compressed = try #require(writer.compress(message))
            #expect(compressed.suffix(4) != Deflate.tail[...], "the sync flush's tail is stripped")
            #expect(try inflated(compressed, by: reader) == message)
            #expect(try inflated(try #require(writer.compress(message)), by: reader) == message, "and again, over the kept context")
        }

        @Test("With context takeover a repeated message shrinks; without it, each is compressed alone")
        func contextTakeover() throws {
            let message = Self.sample(4096)
            let keeping = Deflate(WebSocketDeflateParameters())
            let first = try #require(keeping.compress(message))
            let second = try #require(keeping.compress(message))
            #expect(second.count < first.count / 4)

            let resetting = Deflate(WebSocketDeflateParameters(clientNoContextTakeover: true))
            let alone = try #require(resetting.compress(message))
            #expect(try #require(resetting.compress(message)) == alone)
            // A reader that resets after each message reads them too.
            let reader = Deflate(WebSocketDeflateParameters(serverNoContextTakeover: true))
            #expect(try inflated(alone, by: reader) == message)
            #expect(try inflated(alone, by: reader) == message)
        }

        @Test("A message split across frames inflates to the whole")
        func fragments() throws {
            let message = Self.sample(200_000)
            let compressed = try #require(Deflate(WebSocketDeflateParameters()).compress(message))
            let reader = Deflate(WebSocketDeflateParameters())
            var output: [UInt8] = []
            let cut = compressed.count / 3
            try reader.inflate(Array(compressed[..<cut]), isFinal: false, limit: 1 << 20, into: &output)
            try reader.inflate(Array(compressed[cut..<(2 * cut)]), isFinal: false, limit: 1 << 20, into: &output)
            try reader.inflate(Array(compressed[(2 * cut)...]), isFinal: true, limit: 1 << 20, into: &output)
            #expect(output == message)
        }

        @Test("A deflate bomb fails with 1009 holding no more than the limit")
        func bomb() throws {
            let bomb = try #require(Deflate(WebSocketDeflateParameters()).compress([UInt8](repeating: 0, count: 32 << 20)))
            #expect(bomb.count < 64 * 1024, "32 MiB of zeros are a few dozen KiB on the wire")
            let reader = Deflate(WebSocketDeflateParameters())
            var output: [UInt8] = []
            let limit = 1 << 20
            #expect {
                try reader.inflate(bomb, isFinal: true, limit: limit, into: &output)
            } throws: { error in
                (error as? WebSocketProtocolViolation)?.code == .messageTooBig
            }
            #expect(output.count <= limit)
            #expect(output.capacity <= limit + Deflate.chunkSize, "nor reserves much more")
        }

        @Test("Data that is not deflate fails with 1007 naming the problem")
        func corrupt() {
            #expect {
                _ = try inflated([0xFF, 0xFF, 0xFF, 0xFF], by: Deflate(WebSocketDeflateParameters()))
            } throws: { error in
                guard let violation = error as? WebSocketProtocolViolation else { return false }
                return violation.code == .invalidFramePayloadData && violation.reason.contains("not valid deflate data")
            }
        }

        @Test("An empty compressed payload inflates to an empty message")
        func emptyPayload() throws {
            #expect(try inflated([], by: Deflate(WebSocketDeflateParameters())).isEmpty)
            #expect(try inflated([0x00], by: Deflate(WebSocketDeflateParameters())).isEmpty)
        }

        @Test("An 8-bit client window (which zlib cannot write) sends messages uncompressed")
        func eightBitWindow() {
            #expect(Deflate(WebSocketDeflateParameters(clientMaxWindowBits: 8)).compress([1, 2, 3]) == nil)
            #expect(Deflate(WebSocketDeflateParameters(clientMaxWindowBits: 9)).compress([1, 2, 3]) != nil)
        }

        @Test("The state machine delivers a compressed message and compresses what it sends")
        func machine() throws {
            var machine = WebSocketConnectionStateMachine(maximumMessageSize: 1 << 20, compression: Deflate(WebSocketDeflateParameters()))
            let payload = try #require(Deflate(WebSocketDeflateParameters()).compress(Array("héllo, héllo, héllo".utf8)))
            #expect(payload.count < 126)
            let actions = machine.received([0xC1, UInt8(payload.count)] + payload)
            #expect(actions == [.deliver(.text("héllo, héllo, héllo"))])
            let sent = try machine.send(.text("héllo, héllo, héllo")).get()
            #expect(sent[0] == 0xC1, "FIN, RSV1, text")
        }
    }
#endif
