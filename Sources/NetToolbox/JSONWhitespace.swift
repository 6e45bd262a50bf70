import Foundation

/// JSON's insignificant whitespace (RFC 8259: space, tab, line feed, carriage return), at the
/// byte level.
package enum JSONWhitespace {
    /// Whether `byte` is JSON whitespace.
    @inline(__always)
    package static func contains(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// The first byte of `data` that is not JSON whitespace (`{` for an object), or `nil`.
    package static func firstSignificantByte(of data: Data) -> UInt8? {
        data.first { !contains($0) }
    }
}
