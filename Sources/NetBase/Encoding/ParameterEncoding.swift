import Foundation

/// How ``Parameters`` turn into `application/x-www-form-urlencoded` text (URL queries and form
/// bodies). Output is deterministic: parameters keep their order.
public struct ParameterEncoding: Sendable, Hashable {
    /// How array values are written.
    public enum ArrayStyle: Sendable, Hashable {
        /// `tags[]=a&tags[]=b` (Rails, PHP, Alamofire's default).
        case brackets
        /// `tags=a&tags=b`.
        case repeatedKeys
        /// `tags[0]=a&tags[1]=b`.
        case indexed
    }

    /// How booleans are written.
    public enum BoolStyle: Sendable, Hashable {
        /// `true` / `false`.
        case literal
        /// `1` / `0`.
        case numeric
    }

    /// How nested dictionaries name their keys.
    public enum DictionaryStyle: Sendable, Hashable {
        /// `user[name]=ada` (Rails, PHP, Alamofire's default).
        case brackets
        /// `user.name=ada`.
        case dots
    }

    /// What a `nil` value becomes.
    public enum NilStyle: Sendable, Hashable {
        /// A bare key: `flag` (the default, as in earlier releases).
        case bareKey
        /// Nothing: the pair is left out.
        case dropped
    }

    /// How spaces are written.
    public enum SpaceStyle: Sendable, Hashable {
        /// `%20` (RFC 3986; the default).
        case percentEncoded
        /// `+` (HTML forms, `application/x-www-form-urlencoded`); a literal `+` is then `%2B`.
        case plus
    }

    /// Array style; default ``ArrayStyle/brackets``.
    public var arrayStyle: ArrayStyle
    /// Bool style; default ``BoolStyle/literal``.
    public var boolStyle: BoolStyle
    /// How nested dictionary keys are written. Default: brackets.
    public var dictionaryStyle: DictionaryStyle = .brackets
    /// What `nil` values become. Default: a bare key.
    public var nilStyle: NilStyle = .bareKey
    /// How spaces are written. Default: `%20`.
    public var spaceStyle: SpaceStyle = .percentEncoded

    /// Creates an encoding; every option has the default shown.
    public init(
        arrayStyle: ArrayStyle = .brackets, boolStyle: BoolStyle = .literal, dictionaryStyle: DictionaryStyle = .brackets,
        nilStyle: NilStyle = .bareKey, spaceStyle: SpaceStyle = .percentEncoded
    ) {
        self.arrayStyle = arrayStyle
        self.boolStyle = boolStyle
        self.dictionaryStyle = dictionaryStyle
        self.nilStyle = nilStyle
        self.spaceStyle = spaceStyle
    }

    /// Encodes `parameters` as `key=value` pairs joined by `&`, percent-encoded per RFC 3986
    /// (only unreserved characters stay literal). Nested dictionaries become `outer[inner]`.
    package func encode(_ parameters: Parameters) -> String {
        var pairs: [String] = []
        pairs.reserveCapacity(parameters.count)
        for element in parameters {
            append(element.key, element.value, to: &pairs)
        }
        return pairs.joined(separator: "&")
    }

    private func append(_ key: String, _ value: ParameterValue, to pairs: inout [String]) {
        switch value {
        case .dictionary(let nested):
            for element in nested {
                let nestedKey = dictionaryStyle == .dots ? "\(key).\(element.key)" : "\(key)[\(element.key)]"
                append(nestedKey, element.value, to: &pairs)
            }
        case .array(let values):
            for (index, item) in values.enumerated() {
                let itemKey =
                    switch arrayStyle {
                    case .brackets: "\(key)[]"
                    case .repeatedKeys: key
                    case .indexed: "\(key)[\(index)]"
                    }
                append(itemKey, item, to: &pairs)
            }
        case .null:
            if nilStyle == .bareKey { pairs.append(escape(key)) }
        default:
            pairs.append(escape(key) + "=" + escape(scalarText(value)))
        }
    }

    /// Percent-encodes `text`, with `+` for spaces when asked.
    private func escape(_ text: String) -> String {
        let encoded = PercentEncoding.encode(text)
        return spaceStyle == .plus ? encoded.replacingOccurrences(of: "%20", with: "+") : encoded
    }

    private func scalarText(_ value: ParameterValue) -> String {
        switch value {
        case .string(let string): string
        case .int(let int): String(int)
        case .double(let double):
            double.isFinite && double == double.rounded() && abs(double) < 1e15
                ? String(Int64(double)) : String(double)
        case .bool(let bool): boolStyle == .literal ? (bool ? "true" : "false") : (bool ? "1" : "0")
        case .null, .array, .dictionary: ""
        }
    }
}

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
