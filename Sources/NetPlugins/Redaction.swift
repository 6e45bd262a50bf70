import Foundation
import NetCore

/// Which header and query values the logger and the capture replace with `"<redacted>"`.
///
/// Names are compared case-insensitively. A redacted value is never written, not even in part:
/// besides the header and query fields themselves, any occurrence of a redacted value in a body,
/// an error message or a cURL command is replaced too.
///
/// ```swift
/// let redaction = Redaction.default.adding(headers: ["X-Api-Key"], queryItems: ["sig"])
/// let logger = LoggerPlugin(redaction: redaction)
/// ```
public struct Redaction: Sendable, Hashable {
    /// The replacement text.
    public static let placeholder = "<redacted>"

    /// Header names redacted by default: `Authorization`, `Proxy-Authorization`, `Cookie`, `Set-Cookie`.
    public static let defaultHeaderNames: Set<String> = ["authorization", "proxy-authorization", "cookie", "set-cookie"]

    /// Query item names redacted by default: `access_token`, `api_key`, `apikey`, `client_secret`,
    /// `password`, `token`.
    public static let defaultQueryNames: Set<String> = ["access_token", "api_key", "apikey", "client_secret", "password", "token"]

    /// The default: ``defaultHeaderNames`` and ``defaultQueryNames``.
    public static let `default` = Redaction()

    /// Redacted header names, lowercased.
    public private(set) var headerNames: Set<String>
    /// Redacted query item names, lowercased.
    public private(set) var queryNames: Set<String>

    /// Creates a redaction list. Names are case-insensitive.
    /// - Parameters:
    ///   - headers: Header names whose values are hidden. Default: ``defaultHeaderNames``.
    ///   - queryItems: Query item names whose values are hidden. Default: ``defaultQueryNames``.
    public init(headers: Set<String> = Redaction.defaultHeaderNames, queryItems: Set<String> = Redaction.defaultQueryNames) {
        headerNames = Set(headers.map { $0.lowercased() })
        queryNames = Set(queryItems.map { $0.lowercased() })
    }

    /// This list with more header and query names.
    public func adding(headers: Set<String> = [], queryItems: Set<String> = []) -> Redaction {
        var copy = self
        copy.headerNames.formUnion(headers.map { $0.lowercased() })
        copy.queryNames.formUnion(queryItems.map { $0.lowercased() })
        return copy
    }

    /// Whether the header `name` is redacted.
    public func redactsHeader(_ name: String) -> Bool {
        headerNames.contains(name.lowercased())
    }

    /// Whether the query item `name` is redacted.
    public func redactsQueryItem(_ name: String) -> Bool {
        queryNames.contains(name.lowercased())
    }

    /// `headers` with redacted values replaced, in their original order.
    public func redact(_ headers: HTTPHeaders) -> [(name: String, value: String)] {
        headers.map { field in (field.name, redactsHeader(field.name) ? Self.placeholder : field.value) }
    }

    /// The URL's text with redacted query values replaced. Cheap when the URL has no query.
    public func redact(_ url: URL) -> String {
        let text = url.absoluteString
        // Scan bytes, not Characters: this runs for every logged line.
        guard !queryNames.isEmpty,
              let offset = text.utf8.withContiguousStorageIfAvailable({ $0.firstIndex(of: UInt8(ascii: "?")) }) ?? text.utf8.firstIndex(of: UInt8(ascii: "?")).map({ text.utf8.distance(from: text.utf8.startIndex, to: $0) })
        else { return text }
        let queryStart = text.utf8.index(text.utf8.startIndex, offsetBy: offset)
        let fragmentStart = text[queryStart...].utf8.firstIndex(of: UInt8(ascii: "#")) ?? text.endIndex
        let query = text[text.index(after: queryStart)..<fragmentStart]
        var changed = false
        let items = query.split(separator: "&", omittingEmptySubsequences: false).map { item -> Substring in
            guard let equals = item.firstIndex(of: "=") else { return item }
            let name = item[..<equals]
            guard redactsQueryItem(Self.decode(name)) else { return item }
            changed = true
            return name + "=" + Self.encodedPlaceholder
        }
        guard changed else { return text }
        return String(text[...queryStart]) + items.joined(separator: "&") + text[fragmentStart...]
    }

    /// The query items of `url` as name/value pairs (percent-decoded), redacted.
    public func redactedQueryItems(of url: URL) -> [(name: String, value: String)] {
        guard let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems else { return [] }
        return items.map { item in (item.name, redactsQueryItem(item.name) ? Self.placeholder : (item.value ?? "")) }
    }

    /// The secret values a request (and optionally its response) carries under redacted names,
    /// so that they can be scrubbed from free text. Only computed on slow paths (verbose logs,
    /// exports, error messages).
    public func secrets(in request: Request, response: Response? = nil) -> [String] {
        secrets(in: request, responseHeaders: response?.headers)
    }

    func secrets(in request: Request, responseHeaders: HTTPHeaders?) -> [String] {
        var values: [String] = []
        func add(_ value: String) {
            let trimmed = value.trimmingCharacters(in: .whitespaces)
            // Very short values would scrub unrelated text and reveal nothing useful.
            guard trimmed.count >= 3 else { return }
            // Servers echo a secret back in other spellings (httpbin turns %2B into +), so every
            // common encoding of it is scrubbed too.
            let encoded = PercentEncoding.encode(trimmed)
            for spelling in [trimmed, encoded, encoded.replacingOccurrences(of: "%2B", with: "+"),
                             encoded.replacingOccurrences(of: "%20", with: "+"),
                             trimmed.replacingOccurrences(of: " ", with: "+")] where !values.contains(spelling) {
                values.append(spelling)
            }
        }
        func addHeader(_ name: String, _ value: String) {
            add(value)
            switch name.lowercased() {
            case "authorization", "proxy-authorization":
                if let space = value.firstIndex(of: " ") { add(String(value[value.index(after: space)...])) }
            case "cookie":
                for pair in value.split(separator: ";") { addPair(pair) }
            case "set-cookie":
                if let first = value.split(separator: ";").first { addPair(first) }
            default:
                break
            }
        }
        func addPair(_ pair: Substring) {
            guard let equals = pair.firstIndex(of: "=") else { return }
            add(String(pair[pair.index(after: equals)...]))
        }
        for field in request.headers where redactsHeader(field.name) { addHeader(field.name, field.value) }
        if let responseHeaders {
            for field in responseHeaders where redactsHeader(field.name) { addHeader(field.name, field.value) }
        }
        if request.url.query != nil, let items = URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.percentEncodedQueryItems {
            for item in items where redactsQueryItem(Self.decode(item.name[...])) {
                if let value = item.value {
                    add(value)
                    if let decoded = value.removingPercentEncoding, decoded != value { add(decoded) }
                }
            }
        }
        // Longest first, so a value that contains another is replaced whole.
        return values.sorted { $0.count > $1.count }
    }

    /// `text` with every occurrence of each secret replaced by the placeholder.
    public static func scrub(_ text: String, secrets: [String]) -> String {
        var text = text
        for secret in secrets where text.contains(secret) {
            text = text.replacingOccurrences(of: secret, with: placeholder)
        }
        return text
    }

    private static let encodedPlaceholder = "%3Credacted%3E"

    private static func decode(_ name: Substring) -> String {
        let plain = name.replacingOccurrences(of: "+", with: " ")
        return plain.contains("%") ? (plain.removingPercentEncoding ?? plain) : plain
    }
}
