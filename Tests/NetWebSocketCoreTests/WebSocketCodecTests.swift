@testable import NetWebSocketCore
import Foundation
import Testing

import NetBase

/// Frame encoding (masked, every length form) and the incremental decoder's header checks.
@Suite("WebSocket frame codec")
struct WebSocketCodecTests {
    /// An unmasked server frame with `payload` (any length form).
    static func serverFrame(_ opcode: UInt8, _ payload: [UInt8], fin: Bool = true, firstByteExtra: UInt8 = 0) -> [UInt8] {
        var bytes: [UInt8] = [(fin ? 0x80 : 0) | opcode | firstByteExtra]
        if payload.count < 126 {
            bytes.append(UInt8(payload.count))
        } else if payload.count <= 0xFFFF {
            bytes += [126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        } else {
            bytes.append(127)
            bytes += (0..<8).map { UInt8(truncatingIfNeeded: UInt64(payload.count) >> UInt64(56 - $0 * 8)) }
        }
        return bytes + payload
    }

    func decodeAll(_ bytes: [UInt8], allowance: Int = 1 << 20) throws(WebSocketProtocolViolation) -> [WebSocketFrame] {
        var decoder = WebSocketFrameDecoder()
        decoder.append(bytes)
        var frames: [WebSocketFrame] = []
        while let frame = try decoder.nextFrame(dataAllowance: allowance) { frames.append(frame) }
        return frames
    }

    func violation(_ bytes: [UInt8], allowance: Int = 1 << 20) -> WebSocketProtocolViolation? {
        do {
            _ = try decodeAll(bytes, allowance: allowance)
            return nil
        } catch {
            return error
        }
    }

    @Test("A client frame is masked with its key and uses the length form of each boundary", arguments: [0, 125, 126, 127, 65535, 65536])
    func encodeLengths(length: Int) {
        let payload = (0..<length).map { UInt8(truncatingIfNeeded: $0) }
        let key: [UInt8] = [1, 2, 3, 4]
        let bytes = WebSocketFrameEncoder.encode(WebSocketFrame(opcode: .binary, payload: payload), maskingKey: key)
        #expect(bytes[0] == 0x82)
        #expect(bytes[1] & 0x80 == 0x80, "client frames are masked")
        let headerLength = length < 126 ? 2 : length <= 0xFFFF ? 4 : 10
        #expect(Int(bytes[1] & 0x7F) == (length < 126 ? length : length <= 0xFFFF ? 126 : 127))
        #expect(Array(bytes[headerLength..<(headerLength + 4)]) == key)
        let unmasked = bytes[(headerLength + 4)...].enumerated().map { $0.element ^ key[$0.offset & 3] }
        #expect(unmasked == payload)
    }

    @Test("Each frame gets a different random masking key")
    func freshMaskingKeys() {
        let frame = WebSocketFrame(opcode: .text, payload: Array("hi".utf8))
        let keys = Set((0..<8).map { _ in Array(WebSocketFrameEncoder.encode(frame)[2..<6]) })
        #expect(keys.count > 1)
    }

    @Test("Server frames of every length boundary decode, even when they arrive a byte at a time", arguments: [0, 125, 126, 127, 65535, 65536])
    func decodeLengths(length: Int) throws {
        let payload = (0..<length).map { UInt8(truncatingIfNeeded: $0 * 7) }
        let bytes = Self.serverFrame(0x2, payload)
        #expect(try decodeAll(bytes) == [WebSocketFrame(opcode: .binary, payload: payload)])
        if length <= 126 {
            var decoder = WebSocketFrameDecoder()
            var frames: [WebSocketFrame] = []
            for byte in bytes {
                decoder.append([byte])
                if let frame = try decoder.nextFrame(dataAllowance: 1 << 20) { frames.append(frame) }
            }
            #expect(frames.map(\.payload) == [payload])
            #expect(decoder.bufferedByteCount == 0)
        }
    }

    @Test("A header announcing 2^63-1 bytes fails with 1009 before any payload is buffered")
    func hugeLength() {
        let header: [UInt8] = [0x82, 127, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]
        #expect(violation(header)?.code == .messageTooBig)
        let negative: [UInt8] = [0x82, 127, 0x80, 0, 0, 0, 0, 0, 0, 0]
        #expect(violation(negative)?.code == .protocolError, "the most significant bit of a 64-bit length must be 0")
    }

    @Test("A header announcing 2^63-1 bytes with an unlimited allowance waits for its payload instead of overflowing")
    func hugeLengthWithinAllowance() throws {
        var decoder = WebSocketFrameDecoder()
        decoder.append([0x82, 127, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 1, 2, 3])
        #expect(try decoder.nextFrame(dataAllowance: .max) == nil)
        #expect(decoder.bufferedByteCount == 13)
    }

    @Test("A maximum message size near Int.max is capped at 2^62, and such a header still fails with 1009")
    func maximumMessageSizeIsCapped() {
        var machine = WebSocketConnectionStateMachine(maximumMessageSize: .max)
        #expect(machine.maximumMessageSize == WebSocketConfiguration.largestMaximumMessageSize)
        #expect(WebSocketConfiguration(maximumMessageSize: -5).effectiveMaximumMessageSize == 0)
        let actions = machine.received([0x82, 127, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF])
        #expect(actions.contains { if case .fail = $0 { true } else { false } })
    }

    @Test("A data frame past the allowance fails with 1009 from its header alone")
    func pastAllowance() {
        #expect(violation([0x82, 126, 0x01, 0x00], allowance: 255)?.code == .messageTooBig)
        #expect(violation(Self.serverFrame(0x2, [UInt8](repeating: 0, count: 255)), allowance: 255) == nil)
    }

    @Test(
        "Reserved bits, reserved opcodes and masked server frames fail with 1002",
        arguments: [
            [0xC1, 0x00], [0xA1, 0x00], [0x91, 0x00], [0x83, 0x00], [0x87, 0x00], [0x8B, 0x00], [0x8F, 0x00], [0x81, 0x81, 1, 2, 3, 4, 0x61],
        ] as [[UInt8]])
    func protocolErrors(bytes: [UInt8]) {
        #expect(violation(bytes)?.code == .protocolError)
    }

    @Test("Control frames over 125 bytes or fragmented fail with 1002")
    func controlFrameRules() {
        #expect(violation(Self.serverFrame(0x9, [UInt8](repeating: 0, count: 126)))?.code == .protocolError)
        #expect(violation(Self.serverFrame(0x9, [1], fin: false))?.code == .protocolError)
        #expect(violation(Self.serverFrame(0x9, [UInt8](repeating: 0, count: 125))) == nil)
    }

    @Test("The UTF-8 validator accepts valid text split anywhere and refuses overlongs, surrogates and code points past U+10FFFF")
    func utf8() {
        let text = Array("κόσμε 𝄞 €".utf8)
        for split in 0...text.count {
            var validator = WebSocketUTF8Validator()
            #expect(step(validator.consume(text[..<split])) && step(validator.consume(text[split...])) && validator.isComplete)
        }
        for bad: [UInt8] in [[0xC0, 0x80], [0xE0, 0x80, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xF5], [0xFF], [0x80]] {
            var validator = WebSocketUTF8Validator()
            #expect(!step(validator.consume(bad)))
        }
        var truncated = WebSocketUTF8Validator()
        #expect(step(truncated.consume([0xE2, 0x82])) && !truncated.isComplete)
    }

    @Test("A close payload keeps the code and cuts a long reason on a character boundary")
    func closePayload() {
        let payload = WebSocketFrame.closePayload(code: .goingAway, reason: String(repeating: "é", count: 100))
        #expect(payload.count <= 125)
        #expect(Array(payload.prefix(2)) == [0x03, 0xE9])
        #expect(String(validatingUTF8CString: payload.dropFirst(2)) != nil)
    }
}

extension String {
    /// Whether `bytes` are valid UTF-8 (a test helper).
    init?(validatingUTF8CString bytes: some Collection<UInt8>) {
        var validator = WebSocketUTF8Validator()
        guard validator.consume(bytes), validator.isComplete else { return nil }
        self = String(decoding: bytes, as: UTF8.self)
    }
}

/// Passes a mutating call's answer to `#expect`, which cannot capture a mutated value itself.
func step<T>(_ answer: T) -> T { answer }
