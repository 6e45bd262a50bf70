import NetRedaction
import Foundation
import NetCore

/// Which names hide their values in the logger's and the capture's output.
///
/// One model for every output (log line, verbose body, cURL command, captured entries, HAR,
/// error messages):
/// - Names are compared case-insensitively after stripping brackets: `user[password]` is hidden
///   by `password`, `token[]` by `token`.
/// - Header values are hidden for header and field names; query values for query and field
///   names; body fields (JSON keys at any depth, form fields, multipart parts) for all three.
/// - URL userinfo (`user:password@`) is always removed.
/// - Everything else (text or binary bodies, error messages, other headers) has every known
///   secret value (what the request carries under hidden names, in its common spellings)
///   replaced, so a credential a server echoes is hidden too.
///
/// ```swift
/// let redaction = Redaction.default.adding(headers: ["X-Api-Key"], queryItems: ["sig"], fields: ["pin"])
/// let logger = LoggerPlugin(redaction: redaction)
/// ```
public struct Redaction: Sendable, Hashable {
    /// The replacement text.
    public static let placeholder = SecretRedactor.placeholder

    /// Header names redacted by default: `Authorization`, `Proxy-Authorization`, `Cookie`,
    /// `Set-Cookie`, `Sec-WebSocket-Protocol` (which may carry a token as a subprotocol).
    public static let defaultHeaderNames: Set<String> = RedactionRules.defaultHeaderNames

    /// Query item names redacted by default: `access_token`, `api_key`, `apikey`, `client_secret`,
    /// `password`, `token` (and every name of ``defaultFieldNames``).
    public static let defaultQueryNames: Set<String> = RedactionRules.defaultQueryNames

    /// Names redacted by default wherever they appear (headers, query items, JSON keys, form and
    /// multipart fields): `password`, `passwd`, `pwd`, `passphrase`, `secret`, `client_secret`,
    /// `private_key`, `token`, `access_token`, `refresh_token`, `id_token`, `auth_token`,
    /// `api_key`, `apikey`, `authorization`.
    public static let defaultFieldNames: Set<String> = RedactionRules.defaultFieldNames

    /// The default: ``defaultHeaderNames``, ``defaultQueryNames`` and ``defaultFieldNames``.
    public static let `default` = Redaction()

    /// The rules shared with NetCore's error descriptions.
    package private(set) var rules: RedactionRules

    /// Redacted header names, lowercased.
    package var headerNames: Set<String> { rules.headerNames }
    /// Redacted query item names, lowercased.
    package var queryNames: Set<String> { rules.queryNames }
    /// Redacted field names (headers, query items and body fields), lowercased.
    package var fieldNames: Set<String> { rules.fieldNames }

    /// Creates a redaction list. Names are case-insensitive.
    /// - Parameters:
    ///   - headers: Header names whose values are hidden. Default: ``defaultHeaderNames``.
    ///   - queryItems: Query item names whose values are hidden. Default: ``defaultQueryNames``.
    ///   - fields: Names hidden everywhere (headers, query items, body fields). Default:
    ///     ``defaultFieldNames``; pass `[]` together with the others to hide less.
    public init(
        headers: Set<String> = Redaction.defaultHeaderNames, queryItems: Set<String> = Redaction.defaultQueryNames,
        fields: Set<String> = Redaction.defaultFieldNames
    ) {
        rules = RedactionRules(headers: headers, queryItems: queryItems, fields: fields)
    }

    /// This list with more header, query and field names.
    public func adding(headers: Set<String> = [], queryItems: Set<String> = [], fields: Set<String> = []) -> Redaction {
        var copy = self
        copy.rules = rules.adding(headers: headers, queryItems: queryItems, fields: fields)
        return copy
    }

    /// Whether the header `name` is redacted.
    package func redactsHeader(_ name: String) -> Bool {
        rules.redactsHeader(name)
    }

    /// Whether the query item `name` (percent-decoded) is redacted; brackets are stripped, so
    /// `user[password]` and `token[]` are.
    package func redactsQueryItem(_ name: String) -> Bool {
        rules.redactsQueryItem(name)
    }

    /// Whether the body field `name` (a JSON key, a form or multipart field) is redacted.
    package func redactsField(_ name: String) -> Bool {
        rules.redactsField(name)
    }

    /// `headers` with redacted values replaced, in their original order.
    package func redact(_ headers: HTTPHeaders) -> [(name: String, value: String)] {
        SecretRedactor.redact(headers: headers, rules: rules)
    }

    /// The URL's text without userinfo and with redacted query values replaced. Cheap when the
    /// URL has no `@`, query or fragment.
    package func redact(_ url: URL) -> String {
        SecretRedactor.redact(url: url, rules: rules)
    }

    /// `body` redacted for its content type: JSON keys, form fields and multipart parts with
    /// redacted names, then every value of `secrets` (text or binary bytes alike).
    package func redact(body: Data, contentType: String?, secrets: [String]) -> Data {
        SecretRedactor.redact(body: body, contentType: contentType, secrets: KnownSecrets(values: secrets), rules: rules)
    }

    /// The query items of `url` as name/value pairs (percent-decoded), redacted.
    package func redactedQueryItems(of url: URL) -> [(name: String, value: String)] {
        guard let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems else { return [] }
        return items.map { item in (item.name, redactsQueryItem(item.name) ? Self.placeholder : (item.value ?? "")) }
    }

    /// The secret values a request (and optionally its response) carries under redacted names,
    /// in userinfo and in body fields, in the spellings a server may echo them, so that they can be
    /// scrubbed from free text. Only computed on slow paths (verbose logs, exports, error messages).
    package func secrets(in request: Request, response: Response? = nil) -> [String] {
        knownSecrets(in: request, responseHeaders: response?.headers).values
    }

    /// ``secrets(in:response:)`` as the shared model's value.
    func knownSecrets(in request: Request, responseHeaders: HTTPHeaders?) -> KnownSecrets {
        KnownSecrets(request: request, responseHeaders: responseHeaders, rules: rules)
    }

    /// `text` with every occurrence of each secret replaced by the placeholder.
    package static func scrub(_ text: String, secrets: [String]) -> String {
        KnownSecrets(values: secrets).scrub(text)
    }
}
