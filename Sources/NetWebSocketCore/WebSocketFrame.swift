import NetBase
import Foundation

/// One WebSocket frame (RFC 6455, section 5.2), unmasked.
package struct WebSocketFrame: Sendable, Equatable {
    /// A frame's opcode; the others (3-7, 11-15) are reserved and fail the connection.
    package enum Opcode: UInt8, Sendable {
        case continuation = 0x0
        case text = 0x1
        case binary = 0x2
        case close = 0x8
        case ping = 0x9
        case pong = 0xA

        /// Close, ping and pong: at most 125 bytes, never fragmented.
        package var isControl: Bool { rawValue & 0x8 != 0 }
    }

    /// The largest payload of a control frame.
    package static let maximumControlPayload = 125

    /// Whether this is the last fragment of its message.
    package var isFinal: Bool
    /// The opcode.
    package var opcode: Opcode
    /// The unmasked payload.
    package var payload: [UInt8]
    /// RSV1 (RFC 7692): the first frame of a message compressed with permessage-deflate.
    package var isCompressed: Bool

    package init(isFinal: Bool = true, opcode: Opcode, payload: [UInt8] = [], isCompressed: Bool = false) {
        self.isFinal = isFinal
        self.opcode = opcode
        self.payload = payload
        self.isCompressed = isCompressed
    }

    /// A close frame's payload: the code in network byte order, then the UTF-8 reason (cut to fit
    /// in 125 bytes on a character boundary).
    package static func closePayload(code: WebSocket.CloseCode, reason: String) -> [UInt8] {
        var payload = [UInt8(code.rawValue >> 8), UInt8(code.rawValue & 0xFF)]
        var reasonBytes = Array(reason.utf8)
        if reasonBytes.count > maximumControlPayload - 2 {
            reasonBytes = Array(reasonBytes.prefix(maximumControlPayload - 2))
            while let last = reasonBytes.last, last & 0xC0 == 0x80 { reasonBytes.removeLast() }
            if let last = reasonBytes.last, last >= 0xC0 { reasonBytes.removeLast() }
        }
        payload += reasonBytes
        return payload
    }
}

/// Writes frames as a client must (RFC 6455, section 5.3): every frame masked with a fresh key
/// from the system's secure random source.
package enum WebSocketFrameEncoder {
    /// The bytes of `frame`, masked with `maskingKey` (a fresh secure random key when `nil`).
    package static func encode(_ frame: WebSocketFrame, maskingKey: [UInt8]? = nil) -> [UInt8] {
        let key = maskingKey ?? randomKey()
        let length = frame.payload.count
        var bytes: [UInt8] = []
        bytes.reserveCapacity(length + 14)
        bytes.append((frame.isFinal ? 0x80 : 0) | (frame.isCompressed ? 0x40 : 0) | frame.opcode.rawValue)
        if length < 126 {
            bytes.append(0x80 | UInt8(length))
        } else if length <= 0xFFFF {
            bytes.append(0x80 | 126)
            bytes.append(UInt8(length >> 8))
            bytes.append(UInt8(length & 0xFF))
        } else {
            bytes.append(0x80 | 127)
            for shift in stride(from: 56, through: 0, by: -8) {
                bytes.append(UInt8(truncatingIfNeeded: UInt64(length) >> UInt64(shift)))
            }
        }
        bytes += key
        let start = bytes.count
        bytes.append(contentsOf: frame.payload)
        bytes.withUnsafeMutableBytes { raw in mask(UnsafeMutableRawBufferPointer(rebasing: raw[start...]), key: key) }
        return bytes
    }

    /// XORs `payload` with the four-byte `key` repeated (section 5.3), eight bytes at a time: a
    /// 1 MiB message is 131,072 word operations instead of a million byte ones.
    static func mask(_ payload: UnsafeMutableRawBufferPointer, key: [UInt8]) {
        // The key's bytes in memory order twice: the same pattern whatever the byte order.
        let half = key.withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }
        let wide = UInt64(half) | UInt64(half) << 32
        var index = 0
        while index + 8 <= payload.count {
            let word = payload.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            payload.storeBytes(of: word ^ wide, toByteOffset: index, as: UInt64.self)
            index += 8
        }
        while index < payload.count {
            payload[index] ^= key[index & 3]
            index += 1
        }
    }

    /// Four bytes from `SystemRandomNumberGenerator` (getrandom/arc4random: unpredictable, as
    /// section 10.3 requires so that a page's script cannot choose the bytes on the wire).
    package static func randomKey() -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        let value = generator.next() as UInt32
        return [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }
}
