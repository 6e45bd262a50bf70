import NetBase
/// Checks that text is UTF-8 (RFC 3629) as it arrives, fragment by fragment, so that a text
/// message fails as soon as a byte cannot belong to valid UTF-8 (RFC 6455, section 8.1), even
/// when a character is split across frames.
package struct WebSocketUTF8Validator: Sendable, Equatable {
    /// Continuation bytes the current character still needs.
    private var remaining = 0
    /// The range the next continuation byte must fall in (narrower after E0, ED, F0, F4).
    private var lower: UInt8 = 0x80
    private var upper: UInt8 = 0xBF

    package init() {}

    /// Whether every byte so far can start valid UTF-8; `false` at the first byte that cannot.
    package mutating func consume(_ bytes: some Sequence<UInt8>) -> Bool {
        for byte in bytes where !consume(byte) { return false }
        return true
    }

    /// Whether the bytes so far end on a character boundary (a message may end here).
    package var isComplete: Bool { remaining == 0 }

    private mutating func consume(_ byte: UInt8) -> Bool {
        if remaining > 0 {
            guard byte >= lower, byte <= upper else { return false }
            remaining -= 1
            (lower, upper) = (0x80, 0xBF)
            return true
        }
        switch byte {
        case 0x00...0x7F: return true
        case 0xC2...0xDF: remaining = 1
        case 0xE0: (remaining, lower) = (2, 0xA0)
        case 0xE1...0xEC, 0xEE...0xEF: remaining = 2
        case 0xED: (remaining, upper) = (2, 0x9F)
        case 0xF0: (remaining, lower) = (3, 0x90)
        case 0xF1...0xF3: remaining = 3
        case 0xF4: (remaining, upper) = (3, 0x8F)
        default: return false
        }
        return true
    }
}
