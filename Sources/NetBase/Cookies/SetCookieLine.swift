import NetToolbox
import Foundation

/// One `Set-Cookie` line read by the parsing rules of RFC 6265 §5.2, before the storage rules
/// (``CookieRules``) decide whether and how it is kept.
struct SetCookieLine: Sendable, Equatable {
    /// The most bytes of name plus value kept (RFC 6265 §6.1 asks for at least 4096 bytes of
    /// name, value and attributes; browsers allow 4096 for the name and value alone).
    static let maxNameAndValueBytes = 4096
    /// The most bytes of one attribute's value; a longer attribute is ignored, the cookie kept
    /// (browsers' rule, and RFC 6265bis §5.6).
    static let maxAttributeValueBytes = 1024
    /// The protective bound on a whole line, above what the two limits above let through with
    /// the usual attributes: a longer line is ignored without being read.
    static let maxLineBytes = 16 * 1024

    var name: String
    var value: String
    /// `Expires`, when it was a date the §5.1.1 algorithm could read.
    var expires: Date?
    /// `Max-Age` in seconds, when valid; it wins over ``expires``.
    var maxAge: Int64?
    /// `Domain`, without its leading dot and in lower case; `nil` when absent or empty.
    var domain: String?
    /// `Path`, when present and starting with `/` (otherwise the default path applies).
    var path: String?
    var secure = false
    var httpOnly = false

    /// Reads one line; `nil` for a line the jar ignores: longer than ``maxLineBytes``, with a
    /// name and value longer than ``maxNameAndValueBytes``, holding a control character (CR, LF,
    /// NUL, …; tab is allowed), without `=` in its name-value pair, or with an empty name.
    static func parse(_ line: Substring) -> SetCookieLine? {
        guard line.utf8.count <= maxLineBytes, !line.utf8.contains(where: isControl) else { return nil }
        let parts = line.split(separator: ";", omittingEmptySubsequences: false)
        guard let pair = parts.first, let equals = pair.firstIndex(of: "=") else { return nil }
        let name = trimmed(pair[..<equals])
        let value = trimmed(pair[pair.index(after: equals)...])
        guard !name.isEmpty, name.utf8.count + value.utf8.count <= maxNameAndValueBytes else { return nil }
        var cookie = SetCookieLine(name: String(name), value: String(value))
        // The last occurrence of an attribute wins (§5.3 reads the list from the end).
        for attribute in parts.dropFirst() {
            let key: Substring
            let value: Substring
            if let equals = attribute.firstIndex(of: "=") {
                key = trimmed(attribute[..<equals])
                value = trimmed(attribute[attribute.index(after: equals)...])
            } else {
                key = trimmed(attribute)
                value = ""
            }
            guard value.utf8.count <= maxAttributeValueBytes else { continue }
            cookie.apply(attribute: key.lowercased(), value: value)
        }
        return cookie
    }

    /// The lines of a `Set-Cookie` header whose repeated fields a transport joined with commas.
    ///
    /// A comma starts a new line only when `name=` follows it before any `;` or `,`, so the
    /// comma inside `Expires=Wed, 09 Jun 2021 10:18:14 GMT` stays where it is, and never inside
    /// a double-quoted value of the name-value pair (`foo="bar, baz=qux"` stays one line). A
    /// guess all the same: `z=y, a=b` was one field or two, and only the raw fields can tell.
    static func split(_ header: String) -> [Substring] {
        let bytes = header.utf8
        var lines: [Substring] = []
        var start = bytes.startIndex
        var index = bytes.startIndex
        var inPair = true, inQuotes = false
        while index < bytes.endIndex {
            switch bytes[index] {
            case UInt8(ascii: "\"") where inPair:
                inQuotes.toggle()
            case UInt8(ascii: ";") where !inQuotes:
                inPair = false
            case UInt8(ascii: ",") where !inQuotes && startsCookie(bytes[bytes.index(after: index)...]):
                lines.append(Substring(header.utf8[start..<index]))
                start = bytes.index(after: index)
                inPair = true
            default:
                break
            }
            index = bytes.index(after: index)
        }
        lines.append(Substring(header.utf8[start..<bytes.endIndex]))
        return lines.filter { !trimmed($0).isEmpty }
    }

    private mutating func apply(attribute key: String, value: Substring) {
        switch key {
        case "expires":
            expires = CookieDate.parse(value)
        case "max-age":
            if let seconds = Self.deltaSeconds(value) { maxAge = seconds }
        case "domain":
            // §5.2.3: an empty value is ignored; a leading dot is dropped.
            var domain = value.lowercased()
            if domain.hasPrefix(".") { domain.removeFirst() }
            self.domain = domain.isEmpty ? nil : domain
        case "path":
            path = value.first == "/" ? String(value) : nil
        case "secure":
            secure = true
        case "httponly":
            httpOnly = true
        default:
            break  // SameSite, Priority, Partitioned and unknown attributes are ignored.
        }
    }

    /// §5.2.2: an optional `-` then digits only; anything else leaves the attribute unread.
    /// Values too large for `Int64` saturate (the jar caps every lifetime anyway).
    private static func deltaSeconds(_ text: Substring) -> Int64? {
        let negative = text.first == "-"
        let digits = negative ? text.dropFirst() : text
        guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
        guard !negative else { return 0 }  // any negative age means "already expired"
        return Int64(digits) ?? .max
    }

    /// Whether `rest` (what follows a comma) begins with `name=` before any `;` or `,`.
    private static func startsCookie(_ rest: Substring.UTF8View) -> Bool {
        var sawName = false
        var index = rest.startIndex
        while index < rest.endIndex, OptionalWhitespace.contains(rest[index]) { index = rest.index(after: index) }
        while index < rest.endIndex {
            switch rest[index] {
            case UInt8(ascii: "="): return sawName
            case UInt8(ascii: ";"), UInt8(ascii: ","), UInt8(ascii: " "), 0x09: return false
            default: sawName = true
            }
            index = rest.index(after: index)
        }
        return false
    }

    private static func isControl(_ byte: UInt8) -> Bool {
        (byte < 0x20 && byte != 0x09) || byte == 0x7F
    }

    private static func trimmed(_ text: Substring) -> Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = text.firstIndex(where: { !isSpace($0) }), let last = text.lastIndex(where: { !isSpace($0) }) else {
            return text[text.endIndex...]
        }
        return text[first...last]
    }
}
