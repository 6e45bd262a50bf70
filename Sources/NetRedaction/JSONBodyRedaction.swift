import NetToolbox
import Foundation

/// Redacts JSON bodies by key, at any depth, with a byte scanner rather than a parser: formatting
/// and key order are kept, and truncated or slightly invalid JSON (an excerpt, a broken server
/// answer) is still redacted.
enum JSONBodyRedaction {
    private static let quote = UInt8(ascii: "\"")
    private static let placeholder = Array("\"\(SecretRedactor.placeholder)\"".utf8)

    /// `body` with the value of every secret key replaced by `"<redacted>"`, and the values it hid
    /// (strings unescaped; numbers as written; the strings inside hidden objects and arrays).
    static func redact(_ body: Data, rules: RedactionRules) -> (body: Data, hidden: [String]) {
        let bytes = [UInt8](body)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var hidden: [String] = []
        var changed = false
        var index = 0
        while index < bytes.count {
            guard bytes[index] == quote else {
                output.append(bytes[index])
                index += 1
                continue
            }
            let end = stringEnd(bytes, from: index)
            let colon = skipWhitespace(bytes, from: end)
            guard colon < bytes.count, bytes[colon] == UInt8(ascii: ":"),
                rules.redactsField(JSONEscaping.unescape(bytes[index + 1..<max(index + 1, end - 1)]))
            else {
                output.append(contentsOf: bytes[index..<end])
                index = end
                continue
            }
            let valueStart = skipWhitespace(bytes, from: colon + 1)
            let valueEnd = valueEnd(bytes, from: valueStart)
            output.append(contentsOf: bytes[index..<valueStart])
            output.append(contentsOf: placeholder)
            hidden.append(contentsOf: values(in: bytes[valueStart..<valueEnd]))
            changed = true
            index = valueEnd
        }
        return changed ? (Data(output), hidden) : (body, [])
    }

    /// The index after the string that starts at `start` (a quote), or the end when unterminated.
    private static func stringEnd(_ bytes: [UInt8], from start: Int) -> Int {
        var index = start + 1
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\\"): index += 2
            case quote: return index + 1
            default: index += 1
            }
        }
        return bytes.count
    }

    /// The index after the value that starts at `start`: a string, a whole object or array, or a
    /// scalar up to the next delimiter.
    private static func valueEnd(_ bytes: [UInt8], from start: Int) -> Int {
        guard start < bytes.count else { return bytes.count }
        switch bytes[start] {
        case quote:
            return stringEnd(bytes, from: start)
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            var index = start
            while index < bytes.count {
                switch bytes[index] {
                case quote:
                    index = stringEnd(bytes, from: index)
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 { return index + 1 }
                default:
                    break
                }
                index += 1
            }
            return bytes.count
        default:
            var index = start
            while index < bytes.count, !isDelimiter(bytes[index]) { index += 1 }
            return index
        }
    }

    /// The secret values inside a hidden value: its strings (not the keys of nested objects) and
    /// numbers; `true`, `false` and `null` reveal nothing and are left out.
    private static func values(in value: ArraySlice<UInt8>) -> [String] {
        let bytes = Array(value)
        var found: [String] = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == quote {
                let end = stringEnd(bytes, from: index)
                let next = skipWhitespace(bytes, from: end)
                if next >= bytes.count || bytes[next] != UInt8(ascii: ":") {
                    found.append(JSONEscaping.unescape(bytes[index + 1..<max(index + 1, end - 1)]))
                }
                index = end
            } else if byte == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
                var end = index
                while end < bytes.count, !isDelimiter(bytes[end]) { end += 1 }
                found.append(String(decoding: bytes[index..<end], as: UTF8.self))
                index = end
            } else {
                index += 1
            }
        }
        return found
    }

    private static func skipWhitespace(_ bytes: [UInt8], from start: Int) -> Int {
        var index = start
        while index < bytes.count, JSONWhitespace.contains(bytes[index]) { index += 1 }
        return index
    }

    private static func isDelimiter(_ byte: UInt8) -> Bool {
        JSONWhitespace.contains(byte) || byte == UInt8(ascii: ",") || byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]")
    }
}
