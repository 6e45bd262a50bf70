import Foundation

/// The one redaction model for every output: log lines, verbose bodies, cURL commands, HAR
/// exports and error descriptions.
///
/// - Names (headers, query items, body fields) are matched by ``RedactionRules`` (case-insensitive,
///   brackets stripped); their values become ``placeholder``.
/// - URL userinfo (`user:password@`) is always removed.
/// - Bodies are redacted by structure when it is known (JSON keys at any depth, form fields,
///   multipart part names), then every known secret value (``KnownSecrets``) is replaced in
///   whatever remains, text or binary.
///
/// Its parts live in extensions, one file each: URLs, headers, bodies (JSON, form, multipart),
/// known secrets and free text.
package enum SecretRedactor {
    /// The text that stands in for a hidden value.
    package static let placeholder = "<redacted>"

    /// ``placeholder``, percent-encoded for URLs and form bodies.
    package static let encodedPlaceholder = "%3Credacted%3E"

    /// Redacts free text: occurrences of `url` become its redacted form, userinfo is removed from
    /// every URL in the text, and `secrets` are replaced.
    package static func redact(text: String, url: URL? = nil, secrets: KnownSecrets, rules: RedactionRules = .default) -> String {
        var text = text
        if let url {
            let raw = url.absoluteString
            let redacted = redact(url: url, rules: rules)
            if raw != redacted, text.contains(raw) { text = text.replacingOccurrences(of: raw, with: redacted) }
        }
        text = removingUserinfo(in: text)
        return secrets.scrub(text)
    }

    /// The start of a body, redacted, for a message (an error's "Body: …"): at most `limit` bytes
    /// of the redacted body, then `…` when there was more.
    ///
    /// Redaction runs before the cut, on a prefix somewhat longer than `limit`, so a secret that
    /// crosses the cut is still recognised and a huge body is not redacted whole.
    /// - Parameters:
    ///   - body: The body bytes (a response's data, usually).
    ///   - contentType: Its `Content-Type`, which picks the structural redaction (JSON, form,
    ///     multipart).
    ///   - secrets: The known secrets, usually `KnownSecrets(request:responseHeaders:rules:)`.
    ///   - limit: The most bytes shown. Default 200.
    package static func excerpt(
        of body: Data, contentType: String?, secrets: KnownSecrets, limit: Int = 200, rules: RedactionRules = .default
    ) -> String {
        let margin = 4096
        let redacted = redact(body: body.prefix(limit + margin), contentType: contentType, secrets: secrets, rules: rules)
        let shown = String(decoding: redacted.prefix(max(0, limit)), as: UTF8.self)
        return redacted.count > limit || body.count > limit + margin ? shown + "…" : shown
    }
}
