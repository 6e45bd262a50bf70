import Foundation

/// RFC 3986 percent-encoding.
package enum PercentEncoding {
    /// Encodes every byte of `text`'s UTF-8 except the unreserved characters
    /// `A-Z a-z 0-9 - . _ ~`.
    package static func encode(_ text: String) -> String {
        encode(text) { isUnreserved($0) }
    }

    /// Encodes a URL path: keeps unreserved characters, sub-delimiters, `:`, `@`, `/` and valid
    /// `%XX` escapes. Returns `nil` when a `%` does not start a valid escape.
    package static func encodePath(_ path: String) -> String? {
        let bytes = Array(path.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < bytes.count, isHexDigit(bytes[index + 1]), isHexDigit(bytes[index + 2]) else {
                    return nil
                }
                output.append(contentsOf: bytes[index...index + 2])
                index += 3
                continue
            }
            if isUnreserved(byte) || isPathSymbol(byte) {
                output.append(byte)
            } else {
                appendEscape(byte, to: &output)
            }
            index += 1
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Decodes `%XX` escapes (and `+` as space when `plusAsSpace`); `nil` for a malformed escape
    /// or bytes that are not UTF-8.
    package static func decode(_ text: String, plusAsSpace: Bool = false) -> String? {
        let bytes = Array(text.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < bytes.count, let high = hexValue(bytes[index + 1]),
                    let low = hexValue(bytes[index + 2])
                else { return nil }
                output.append(high << 4 | low)
                index += 3
            } else {
                output.append(plusAsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
                index += 1
            }
        }
        return String(validating: output, as: UTF8.self)
    }

    private static func encode(_ text: String, keeping keep: (UInt8) -> Bool) -> String {
        var needsWork = false
        for byte in text.utf8 where !keep(byte) {
            needsWork = true
            break
        }
        guard needsWork else { return text }
        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count * 3)
        for byte in text.utf8 {
            if keep(byte) { output.append(byte) } else { appendEscape(byte, to: &output) }
        }
        return String(decoding: output, as: UTF8.self)
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    private static func appendEscape(_ byte: UInt8, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "%"))
        output.append(hexDigits[Int(byte >> 4)])
        output.append(hexDigits[Int(byte & 0x0F)])
    }

    static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
            UInt8(ascii: "_"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }

    private static func isPathSymbol(_ byte: UInt8) -> Bool {
        // sub-delims / ":" / "@" (RFC 3986 pchar) plus "/" between segments.
        "!$&'()*+,;=:@/".utf8.contains(byte)
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool { hexValue(byte) != nil }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
