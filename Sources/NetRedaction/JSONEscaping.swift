/// Writes strings the way JSON serialisers echo them, so that a secret is recognised in a JSON
/// response however the server escaped it.
enum JSONEscaping {
    /// `text` as the inside of a JSON string: quotes, backslashes and control characters escaped;
    /// with `asciiOnly`, every non-ASCII scalar as `\uXXXX` (surrogate pairs above U+FFFF), as
    /// Python's `json.dumps` writes by default.
    static func escape(_ text: String, asciiOnly: Bool) -> String {
        var output = ""
        output.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            default:
                if scalar.value < 0x20 {
                    output += unicodeEscape(UInt16(scalar.value))
                } else if asciiOnly && scalar.value > 0x7E {
                    for unit in String(scalar).utf16 { output += unicodeEscape(unit) }
                } else {
                    output.unicodeScalars.append(scalar)
                }
            }
        }
        return output
    }

    private static func unicodeEscape(_ unit: UInt16) -> String {
        let hex = String(unit, radix: 16)
        return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
    }
}

extension JSONEscaping {
    /// The text of a JSON string's inside (without its quotes), escapes decoded. Malformed escapes
    /// are kept as written; an unterminated string is decoded as far as it goes.
    static func unescape(_ inside: ArraySlice<UInt8>) -> String {
        guard inside.contains(UInt8(ascii: "\\")) else { return String(decoding: inside, as: UTF8.self) }
        var output: [UInt8] = []
        output.reserveCapacity(inside.count)
        var index = inside.startIndex
        var pendingHigh: UInt16?
        while index < inside.endIndex {
            let byte = inside[index]
            guard byte == UInt8(ascii: "\\"), index + 1 < inside.endIndex else {
                output.append(byte)
                index += 1
                continue
            }
            let escape = inside[index + 1]
            index += 2
            switch escape {
            case UInt8(ascii: "n"): output.append(0x0A)
            case UInt8(ascii: "r"): output.append(0x0D)
            case UInt8(ascii: "t"): output.append(0x09)
            case UInt8(ascii: "b"): output.append(0x08)
            case UInt8(ascii: "f"): output.append(0x0C)
            case UInt8(ascii: "u"):
                guard index + 4 <= inside.endIndex,
                    let unit = UInt16(String(decoding: inside[index..<index + 4], as: UTF8.self), radix: 16)
                else {
                    output.append(contentsOf: [UInt8(ascii: "\\"), escape])
                    continue
                }
                index += 4
                if (0xD800...0xDBFF).contains(unit) {
                    pendingHigh = unit
                    continue
                }
                var units = [unit]
                if let high = pendingHigh, (0xDC00...0xDFFF).contains(unit) { units = [high, unit] }
                pendingHigh = nil
                output.append(contentsOf: String(decoding: units, as: UTF16.self).utf8)
            default:
                output.append(escape)
            }
        }
        return String(decoding: output, as: UTF8.self)
    }
}
