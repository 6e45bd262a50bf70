import NetToolbox
import Foundation
import NetCore

/// MD5 (RFC 1321), only for HTTP Digest authentication, whose most common algorithm is still
/// MD5. Never use it for anything that needs collision resistance.
enum MD5 {
    /// The 16-byte digest of `data`, as lowercase hex.
    static func hex(_ data: Data) -> String {
        SHA256.hexString(digest(data))
    }

    /// Per-round left-rotation amounts (RFC 1321 §3.4).
    private static let shifts: [UInt32] = [
        7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22,
        5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20,
        4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23,
        6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21,
    ]

    /// The table T[i] = floor(2^32 × |sin(i + 1)|).
    private static let table: [UInt32] = (0..<64).map { UInt32(truncatingIfNeeded: Int64(abs(sin(Double($0 + 1))) * 4_294_967_296)) }

    static func digest(_ data: Data) -> [UInt8] {
        var message = [UInt8](data)
        let bitLength = UInt64(message.count) &* 8
        message.append(0x80)
        while message.count % 64 != 56 { message.append(0) }
        for shift in stride(from: 0, to: 64, by: 8) { message.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift))) }

        var state: (UInt32, UInt32, UInt32, UInt32) = (0x6745_2301, 0xefcd_ab89, 0x98ba_dcfe, 0x1032_5476)
        for blockStart in stride(from: 0, to: message.count, by: 64) {
            var words = [UInt32](repeating: 0, count: 16)
            for index in 0..<16 {
                let base = blockStart + index * 4
                words[index] =
                    UInt32(message[base]) | UInt32(message[base + 1]) << 8 | UInt32(message[base + 2]) << 16 | UInt32(message[base + 3]) << 24
            }
            var (a, b, c, d) = state
            for round in 0..<64 {
                let mixed: UInt32
                let index: Int
                switch round {
                case 0..<16: (mixed, index) = ((b & c) | (~b & d), round)
                case 16..<32: (mixed, index) = ((d & b) | (~d & c), (5 * round + 1) % 16)
                case 32..<48: (mixed, index) = (b ^ c ^ d, (3 * round + 5) % 16)
                default: (mixed, index) = (c ^ (b | ~d), (7 * round) % 16)
                }
                let sum = a &+ mixed &+ table[round] &+ words[index]
                (a, d, c) = (d, c, b)
                b = b &+ (sum << shifts[round] | sum >> (32 - shifts[round]))
            }
            state = (state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d)
        }
        return [state.0, state.1, state.2, state.3].flatMap { word in (0..<4).map { UInt8(truncatingIfNeeded: word >> (8 * $0)) } }
    }
}
