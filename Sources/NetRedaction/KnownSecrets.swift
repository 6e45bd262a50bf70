import NetToolbox
import Foundation

/// The secret values a request carries (under redacted header, query, userinfo and body field
/// names, the values of its cookie jar's cookies for its URL, plus redacted response headers), in
/// every common spelling, longest first, so that they can be replaced wherever they reappear: in
/// free text, in an unstructured body, in binary bytes.
///
/// Computed only on slow paths (verbose logs, cURL lines, exports, error descriptions).
package struct KnownSecrets: Sendable, Hashable {
    /// Values shorter than this are not collected: they would scrub unrelated text and reveal
    /// little on their own.
    package static let minimumLength = 3

    /// No secrets.
    package static let none = KnownSecrets()

    /// The values, longest first (so a value that contains another is replaced whole).
    package private(set) var values: [String] = []

    /// No secrets.
    package init() {}

    /// Exactly these values (no other spellings added), empty strings left out.
    package init(values: some Sequence<String>) {
        for value in values where !value.isEmpty && !self.values.contains(value) { self.values.append(value) }
        sort()
    }

    /// Whether there is nothing to replace.
    package var isEmpty: Bool { values.isEmpty }

    /// Adds `value` and the spellings a server may echo it in (percent-encoded, `+` for spaces,
    /// JSON-escaped), when it is at least ``minimumLength`` characters long.
    package mutating func add(_ value: String) {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        guard trimmed.count >= Self.minimumLength else { return }
        let encoded = PercentEncoding.encode(trimmed)
        let spellings = [
            trimmed, encoded, encoded.replacingOccurrences(of: "%2B", with: "+"),
            encoded.replacingOccurrences(of: "%20", with: "+"), trimmed.replacingOccurrences(of: " ", with: "+"),
            JSONEscaping.escape(trimmed, asciiOnly: false), JSONEscaping.escape(trimmed, asciiOnly: true),
        ]
        // A spelling inside the placeholder itself would mangle every placeholder already written.
        for spelling in spellings where !values.contains(spelling) && !SecretRedactor.placeholder.contains(spelling) {
            values.append(spelling)
        }
        sort()
    }

    /// Adds every value of `other`.
    package mutating func formUnion(_ other: KnownSecrets) {
        for value in other.values where !values.contains(value) { values.append(value) }
        sort()
    }

    /// `text` with every secret replaced by ``SecretRedactor/placeholder``.
    package func scrub(_ text: String) -> String {
        var text = text
        for secret in values where text.contains(secret) {
            text = text.replacingOccurrences(of: secret, with: SecretRedactor.placeholder)
        }
        return text
    }

    /// `data` with every secret's UTF-8 bytes replaced by the placeholder's bytes, whatever the
    /// content type (binary included). Returns `data` itself when nothing matched.
    package func scrub(_ data: Data) -> Data {
        guard !values.isEmpty, !data.isEmpty else { return data }
        var bytes = [UInt8](data)
        var changed = false
        let placeholder = Array(SecretRedactor.placeholder.utf8)
        for secret in values {
            if let replaced = ByteReplacement.replacing(Array(secret.utf8), with: placeholder, in: bytes) {
                bytes = replaced
                changed = true
            }
        }
        return changed ? Data(bytes) : data
    }

    // MARK: Collecting

    private mutating func sort() {
        values.sort { $0.count != $1.count ? $0.count > $1.count : $0 < $1 }
    }

    /// Adds the value of the redacted header `name`, and the parts a server may echo on their
    /// own (the credentials after an `Authorization` scheme, cookie values, each subprotocol).
    package mutating func addHeader(_ name: String, _ value: String) {
        add(value)
        switch name.lowercased() {
        case "authorization", "proxy-authorization":
            if let space = value.firstIndex(of: " ") { add(String(value[value.index(after: space)...])) }
        case "cookie":
            for pair in value.split(separator: ";") { addPairValue(pair) }
        case "set-cookie":
            if let first = value.split(separator: ";").first { addPairValue(first) }
        case "sec-websocket-protocol":
            // Each offered subprotocol on its own: one of them may be a token.
            for item in value.split(separator: ",") { add(String(item)) }
        default:
            break
        }
    }

    private mutating func addPairValue(_ pair: Substring) {
        guard let equals = pair.firstIndex(of: "=") else { return }
        add(String(pair[pair.index(after: equals)...]))
    }

    /// Adds the secrets a URL carries: its userinfo and the values of its secret query items.
    package mutating func addSecrets(of url: URL, rules: RedactionRules) {
        addUserinfo(of: url)
        addQueryItems(of: url, rules: rules)
    }

    /// Adds the values that structural redaction hides in `body` (JSON keys, form fields,
    /// multipart parts with secret names).
    package mutating func addHiddenFields(of body: Data, contentType: String?, rules: RedactionRules) {
        guard !body.isEmpty else { return }
        let format = SecretRedactor.format(contentType: contentType, body: body)
        for value in SecretRedactor.redactStructure(body, format: format, rules: rules).hidden { add(value) }
    }

    /// The password of `user:password@`, and the Basic credentials a transport may build from it.
    private mutating func addUserinfo(of url: URL) {
        guard let password = url.password, !password.isEmpty else { return }
        add(password)
        if let decoded = password.removingPercentEncoding, decoded != password { add(decoded) }
        let user = url.user?.removingPercentEncoding ?? url.user ?? ""
        let plain = password.removingPercentEncoding ?? password
        add(Data("\(user):\(plain)".utf8).base64EncodedString())
    }

    private mutating func addQueryItems(of url: URL, rules: RedactionRules) {
        guard url.query != nil,
            let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedQueryItems
        else { return }
        for item in items where rules.redactsQueryItem(SecretRedactor.decodedName(item.name[...])) {
            guard let value = item.value else { continue }
            add(value)
            if let decoded = PercentEncoding.decode(value, plusAsSpace: true), decoded != value { add(decoded) }
            if let decoded = value.removingPercentEncoding, decoded != value { add(decoded) }
        }
    }
}
