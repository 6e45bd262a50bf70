import Foundation
import NetRedaction

/// The redaction entry points that take a NetBase ``Request``.
extension SecretRedactor {
    /// Redacts free text about `request`, such as an error description: the request's URL
    /// (wherever it appears) is replaced by its redacted form, userinfo is removed from every URL
    /// in the text, and every known secret of the request (and of `responseHeaders`) is replaced.
    ///
    /// ```swift
    /// let safe = SecretRedactor.redact(text: "Status 500 for GET https://u:p@h/?token=t", for: request)
    /// ```
    package static func redact(
        text: String, for request: Request, responseHeaders: HTTPHeaders? = nil, rules: RedactionRules = .default
    ) -> String {
        redact(text: text, url: request.url, secrets: KnownSecrets(request: request, responseHeaders: responseHeaders, rules: rules), rules: rules)
    }

    /// `METHOD url` for messages about `request`, the URL redacted (see ``redact(url:rules:)``).
    package static func describe(_ request: Request, rules: RedactionRules = .default) -> String {
        "\(request.method.rawValue) \(redact(url: request.url, rules: rules))"
    }
}
