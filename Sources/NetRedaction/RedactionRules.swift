/// Which names hide their values: header names, query item names and body field names.
///
/// Every name is compared case-insensitively after brackets are stripped (see ``SecretName``), so
/// `user[password]` is hidden by `password` and `token[]` by `token`. A header is hidden when its
/// name is a header or a field name; a query item when it is a query or a field name; a body field
/// (JSON key at any depth, form field, multipart part) when it is any of the three.
///
/// NetPlugins' public `Redaction` wraps these rules; NetCore uses ``default`` for error descriptions.
package struct RedactionRules: Sendable, Hashable {
    /// `Authorization`, `Proxy-Authorization`, `Cookie`, `Set-Cookie`, `Sec-WebSocket-Protocol`
    /// (browser-style WebSocket APIs pass bearer tokens as subprotocols).
    package static let defaultHeaderNames: Set<String> = [
        "authorization", "proxy-authorization", "cookie", "set-cookie", "sec-websocket-protocol",
    ]

    /// `access_token`, `api_key`, `apikey`, `client_secret`, `password`, `token`.
    package static let defaultQueryNames: Set<String> = ["access_token", "api_key", "apikey", "client_secret", "password", "token"]

    /// Names that hide a value wherever they appear (headers, query items and body fields).
    package static let defaultFieldNames: Set<String> = [
        "password", "passwd", "pwd", "passphrase", "secret", "client_secret", "private_key",
        "token", "access_token", "refresh_token", "id_token", "auth_token",
        "api_key", "apikey", "authorization",
    ]

    /// The defaults: ``defaultHeaderNames``, ``defaultQueryNames`` and ``defaultFieldNames``.
    package static let `default` = RedactionRules()

    /// Configured header names, lowercased.
    package private(set) var headerNames: Set<String>
    /// Configured query item names, lowercased.
    package private(set) var queryNames: Set<String>
    /// Configured body field names, lowercased.
    package private(set) var fieldNames: Set<String>

    private var headerMatches: Set<String> = []
    private var queryMatches: Set<String> = []
    private var bodyMatches: Set<String> = []

    /// Creates rules from name lists (any case).
    package init(
        headers: Set<String> = RedactionRules.defaultHeaderNames,
        queryItems: Set<String> = RedactionRules.defaultQueryNames,
        fields: Set<String> = RedactionRules.defaultFieldNames
    ) {
        headerNames = Set(headers.map { $0.lowercased() })
        queryNames = Set(queryItems.map { $0.lowercased() })
        fieldNames = Set(fields.map { $0.lowercased() })
        rebuild()
    }

    /// These rules with more names.
    package func adding(headers: Set<String> = [], queryItems: Set<String> = [], fields: Set<String> = []) -> RedactionRules {
        var copy = self
        copy.headerNames.formUnion(headers.map { $0.lowercased() })
        copy.queryNames.formUnion(queryItems.map { $0.lowercased() })
        copy.fieldNames.formUnion(fields.map { $0.lowercased() })
        copy.rebuild()
        return copy
    }

    /// Whether the value of the header `name` is hidden.
    package func redactsHeader(_ name: some StringProtocol) -> Bool {
        SecretName.matches(name, in: headerMatches)
    }

    /// Whether the value of the query item `name` (already percent-decoded) is hidden.
    package func redactsQueryItem(_ name: some StringProtocol) -> Bool {
        SecretName.matches(name, in: queryMatches)
    }

    /// Whether the value of the body field `name` (JSON key, form field or multipart part) is hidden.
    package func redactsField(_ name: some StringProtocol) -> Bool {
        SecretName.matches(name, in: bodyMatches)
    }

    private mutating func rebuild() {
        headerMatches = headerNames.union(fieldNames)
        queryMatches = queryNames.union(fieldNames)
        bodyMatches = headerMatches.union(queryNames)
    }
}
