import NetRedaction
extension SecretRedactor {
    /// Header names whose values are URLs: their userinfo and secret query values are redacted.
    private static let urlHeaderNames: Set<String> = ["location", "content-location", "referer", "origin", "link", "refresh"]

    /// `headers` in their original order, the values of secret names replaced by ``placeholder``.
    /// URL-valued headers (`Location`, `Referer`, …) get ``redact(urlString:rules:)``, and every
    /// other value has `secrets` replaced.
    package static func redact(
        headers: HTTPHeaders, secrets: KnownSecrets = .none, rules: RedactionRules = .default
    ) -> [(name: String, value: String)] {
        headers.map { field in
            if rules.redactsHeader(field.name) { return (field.name, placeholder) }
            var value = field.value
            if urlHeaderNames.contains(field.name.lowercased()) { value = redact(urlString: value, rules: rules) }
            return (field.name, secrets.scrub(value))
        }
    }
}
