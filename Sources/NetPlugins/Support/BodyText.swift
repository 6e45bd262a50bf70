import NetRedaction
import NetToolbox
import Foundation
import NetCore

/// Turns bodies into safe, readable text for logs and exports (slow paths only).
enum BodyText {
    /// Whether a content type names text (JSON, XML, form, `text/*`).
    static func isTextual(_ contentType: String?) -> Bool {
        guard let type = contentType?.lowercased() else { return false }
        return type.hasPrefix("text/") || type.contains("json") || type.contains("xml")
            || type.contains("x-www-form-urlencoded") || type.contains("javascript") || type.contains("graphql")
    }

    /// Whether a content type names JSON.
    static func isJSON(_ contentType: String?) -> Bool {
        contentType?.lowercased().contains("json") ?? false
    }

    /// `data` redacted (see ``Redaction``) and shown as text, or `nil` when it is binary.
    ///
    /// JSON (by content type, or any body that starts with `{` or `[` when `contentType` is
    /// unknown) is pretty-printed with sorted keys when `pretty` is set and it parses; redaction
    /// happens on the bytes first, so truncated JSON is redacted too.
    static func text(_ data: Data, contentType: String?, pretty: Bool, redaction: Redaction, secrets: KnownSecrets) -> String? {
        if data.isEmpty { return "" }
        let redacted = redactedBytes(data, contentType: contentType, redaction: redaction, secrets: secrets)
        if pretty, SecretRedactor.format(contentType: contentType, body: data) == .json,
            let object = try? JSONSerialization.jsonObject(with: redacted, options: [.fragmentsAllowed]),
            let rendered = try? JSONSerialization.data(
                withJSONObject: object, options: [.fragmentsAllowed, .withoutEscapingSlashes, .prettyPrinted, .sortedKeys])
        {
            // Rendering decodes escapes, which can spell a secret anew: scrub once more.
            return secrets.scrub(String(decoding: rendered, as: UTF8.self))
        }
        guard isTextual(contentType) || contentType == nil, let string = String(data: redacted, encoding: .utf8) else {
            return nil
        }
        if contentType == nil, string.unicodeScalars.contains(where: { $0.value < 0x20 && $0 != "\n" && $0 != "\r" && $0 != "\t" }) {
            return nil
        }
        return string
    }

    /// `data` with secrets removed, as bytes, for cURL commands, captures and exports: JSON keys,
    /// form and multipart fields with redacted names are replaced, then known secret values
    /// anywhere (binary bodies included).
    static func redactedBytes(_ data: Data, contentType: String?, redaction: Redaction, secrets: KnownSecrets) -> Data {
        SecretRedactor.redact(body: data, contentType: contentType, secrets: secrets, rules: redaction.rules)
    }

    /// A one-line summary of a body that is not shown as text.
    static func summary(_ data: Data, contentType: String?) -> String {
        "<\(contentType ?? "binary") body, \(UnitText.bytes(Int64(data.count)).text)>"
    }

    /// `text` cut to `limit` characters with a note of how much was left out.
    static func truncate(_ text: String, limit: Int) -> String {
        guard limit >= 0, text.count > limit else { return text }
        return String(text.prefix(limit)) + "… (\(text.count - limit) more characters)"
    }
}
