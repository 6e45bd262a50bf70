#if canImport(CCurl)
    import NetWebSocketCore
    import Foundation
    @testable import NetBase
    @testable import NetCurl
    import Testing

    /// The maximum message size counts a compressed message's inflated bytes: incompressible
    /// data is a little larger on the wire than the limit, and still fits.
    @Suite("Curl WebSocket permessage-deflate message size limit")
    struct CurlWebSocketDeflateLimitTests {
        typealias Deflate = CurlWebSocketDeflate
        static let limit = 1 << 20

        /// `count` bytes deflate cannot shrink (xorshift64*'s high bytes).
        static func incompressible(_ count: Int) -> [UInt8] {
            var state: UInt64 = 0x9E37_79B9_7F4A_7C15
            return (0..<count).map { _ in
                state ^= state >> 12
                state ^= state << 25
                state ^= state >> 27
                return UInt8(truncatingIfNeeded: (state &* 0x2545_F491_4F6C_DD1D) >> 56)
            }
        }

        /// A server frame (unmasked) with a 64-bit length.
        static func frame(_ first: UInt8, _ payload: some Collection<UInt8>) -> [UInt8] {
            var bytes: [UInt8] = [first, 127]
            for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: payload.count >> shift)) }
            return bytes + payload
        }

        @Test("An incompressible message of exactly the limit arrives, in one frame or two")
        func incompressibleAtLimit() throws {
            let message = Self.incompressible(Self.limit)
            let compressed = try #require(Deflate(WebSocketDeflateParameters()).compress(message))
            #expect(compressed.count > Self.limit, "stored blocks make it larger on the wire")
            var whole = WebSocketConnectionStateMachine(maximumMessageSize: Self.limit, compression: Deflate(WebSocketDeflateParameters()))
            #expect(whole.received(Self.frame(0xC2, compressed)) == [.deliver(.binary(Data(message)))])

            var split = WebSocketConnectionStateMachine(maximumMessageSize: Self.limit, compression: Deflate(WebSocketDeflateParameters()))
            let cut = compressed.count / 2
            let frames = Self.frame(0x42, compressed[..<cut]) + Self.frame(0x80, compressed[cut...])
            #expect(split.received(frames) == [.deliver(.binary(Data(message)))])
        }

        @Test("One byte more than the limit still fails with 1009")
        func pastLimit() throws {
            let compressed = try #require(Deflate(WebSocketDeflateParameters()).compress(Self.incompressible(Self.limit + 1)))
            var machine = WebSocketConnectionStateMachine(maximumMessageSize: Self.limit, compression: Deflate(WebSocketDeflateParameters()))
            let actions = machine.received(Self.frame(0xC2, compressed))
            #expect(actions.contains { if case .fail(.violation(let violation)) = $0 { violation.code == .messageTooBig } else { false } })
        }

        @Test("An uncompressed frame past the limit is still refused at its header")
        func uncompressedHeader() {
            var machine = WebSocketConnectionStateMachine(maximumMessageSize: 1000, compression: Deflate(WebSocketDeflateParameters()))
            let actions = machine.received([0x82, 126, 0x03, 0xE9])  // 1001 bytes announced, none sent
            #expect(actions.contains { if case .fail(.violation(let violation)) = $0 { violation.code == .messageTooBig } else { false } })
        }
    }
#endif
