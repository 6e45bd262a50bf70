import Foundation

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

    /// `data` as text with redacted JSON keys and scrubbed secrets, or `nil` when it is binary.
    ///
    /// JSON (by content type, or any body that parses as an object or array when `contentType` is
    /// unknown) is re-serialised, pretty-printed when `pretty` is set, with the values of keys
    /// named like redacted headers or query items replaced.
    static func text(_ data: Data, contentType: String?, pretty: Bool, redaction: Redaction, secrets: [String]) -> String? {
        if data.isEmpty { return "" }
        let looksLikeJSON = isJSON(contentType) || (contentType == nil && [UInt8(ascii: "{"), UInt8(ascii: "[")].contains(data.first))
        if looksLikeJSON, let object = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) {
            var changed = false
            let cleaned = redactKeys(object, redaction: redaction, changed: &changed)
            var options: JSONSerialization.WritingOptions = [.fragmentsAllowed, .withoutEscapingSlashes]
            if pretty { options.insert(.prettyPrinted); options.insert(.sortedKeys) }
            if let rendered = try? JSONSerialization.data(withJSONObject: cleaned, options: options) {
                return Redaction.scrub(String(decoding: rendered, as: UTF8.self), secrets: secrets)
            }
        }
        guard isTextual(contentType) || contentType == nil, let string = String(data: data, encoding: .utf8) else {
            return nil
        }
        if contentType == nil, string.unicodeScalars.contains(where: { $0.value < 0x20 && $0 != "\n" && $0 != "\r" && $0 != "\t" }) {
            return nil
        }
        return Redaction.scrub(string, secrets: secrets)
    }

    /// `data` with secrets removed, as bytes, for captures and exports: JSON whose keys need
    /// redacting is re-serialised; other text only has secret values replaced; binary is kept.
    static func redactedBytes(_ data: Data, contentType: String?, redaction: Redaction, secrets: [String]) -> Data {
        guard !data.isEmpty, isTextual(contentType) || contentType == nil, let string = String(data: data, encoding: .utf8) else {
            return data
        }
        if isJSON(contentType) || [UInt8(ascii: "{"), UInt8(ascii: "[")].contains(data.first),
           let object = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) {
            var changed = false
            let cleaned = redactKeys(object, redaction: redaction, changed: &changed)
            if changed, let rendered = try? JSONSerialization.data(withJSONObject: cleaned, options: [.fragmentsAllowed, .withoutEscapingSlashes]) {
                return Data(Redaction.scrub(String(decoding: rendered, as: UTF8.self), secrets: secrets).utf8)
            }
        }
        let scrubbed = Redaction.scrub(string, secrets: secrets)
        return scrubbed == string ? data : Data(scrubbed.utf8)
    }

    /// A one-line summary of a body that is not shown as text.
    static func summary(_ data: Data, contentType: String?) -> String {
        "<\(contentType ?? "binary") body, \(ByteCount.format(Int64(data.count)))>"
    }

    /// `text` cut to `limit` characters with a note of how much was left out.
    static func truncate(_ text: String, limit: Int) -> String {
        guard limit >= 0, text.count > limit else { return text }
        return String(text.prefix(limit)) + "… (\(text.count - limit) more characters)"
    }

    private static func redactKeys(_ value: Any, redaction: Redaction, changed: inout Bool) -> Any {
        if let object = value as? [String: Any] {
            var result: [String: Any] = [:]
            for (key, child) in object {
                let lowered = key.lowercased()
                if redaction.headerNames.contains(lowered) || redaction.queryNames.contains(lowered) {
                    result[key] = Redaction.placeholder
                    changed = true
                } else {
                    result[key] = redactKeys(child, redaction: redaction, changed: &changed)
                }
            }
            return result
        }
        if let array = value as? [Any] {
            var result: [Any] = []
            for element in array { result.append(redactKeys(element, redaction: redaction, changed: &changed)) }
            return result
        }
        return value
    }
}

/// Human-readable sizes and durations without formatters (cheap enough for every request).
enum ByteCount {
    static func format(_ bytes: Int64) -> String {
        if bytes < 1024 { return "\(bytes) B" }
        if bytes < 1024 * 1024 { return oneDecimal(bytes * 10 / 1024) + " KB" }
        return oneDecimal(bytes * 10 / (1024 * 1024)) + " MB"
    }

    /// `tenths` = value × 10, written as `12.3`.
    static func oneDecimal(_ tenths: Int64) -> String {
        "\(tenths / 10).\(tenths % 10)"
    }
}

extension Duration {
    /// Milliseconds as a `Double`.
    var milliseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1000 + Double(attoseconds) / 1e15
    }

    /// `12.3 ms`, without a formatter.
    var logText: String {
        let (seconds, attoseconds) = components
        let tenths = seconds * 10_000 + attoseconds / 100_000_000_000_000
        return ByteCount.oneDecimal(max(0, tenths)) + " ms"
    }
}
