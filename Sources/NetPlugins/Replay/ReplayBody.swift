import NetRedaction
import Foundation
import NetCore

/// Compares a live request's body with a recorded one, tolerating what recording changes:
/// JSON is compared by value (key order and whitespace ignored), form bodies as unordered
/// pairs, and a recorded `<redacted>` (how NetKit records secret JSON values and form fields)
/// stands for any value. Other bodies that were recorded with secrets replaced match once the
/// live body is redacted by the default rules.
enum ReplayBody {
    /// Whether `request`'s body matches `recorded`. A missing and an empty body are the same;
    /// a body that is not in memory (a file) matches only an empty recording.
    static func matches(_ request: Request, recorded: Data?) -> Bool {
        let recorded = recorded ?? Data()
        guard let live = request.body.inMemoryData else { return recorded.isEmpty }
        if equivalent(live, recorded) { return true }
        let text = String(decoding: recorded, as: UTF8.self)
        guard text.contains(Redaction.placeholder) || text.contains(SecretRedactor.encodedPlaceholder),
            let redacted = SecretRedactor.redactedBody(of: request, secrets: KnownSecrets(request: request))
        else { return false }
        return equivalent(redacted, recorded)
    }

    /// Whether `live` and `recorded` are the same bytes, JSON of the same value or the same
    /// form fields (a recorded `<redacted>` standing for any value).
    static func equivalent(_ live: Data, _ recorded: Data) -> Bool {
        if live == recorded { return true }
        if let left = json(live), let right = json(recorded) { return jsonMatches(left, recorded: right) }
        if let left = formPairs(live), let right = formPairs(recorded) { return formMatches(left, recorded: right) }
        return false
    }

    /// The parsed JSON, or `nil` when the body is not a JSON object or array.
    private static func json(_ data: Data) -> Any? {
        guard let first = data.first(where: { !" \t\r\n".utf8.contains($0) }),
            first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
        else { return nil }
        return try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
    }

    private static func jsonMatches(_ live: Any, recorded: Any) -> Bool {
        if let string = recorded as? String, string == Redaction.placeholder { return true }
        switch (live, recorded) {
        case (let live as [String: Any], let recorded as [String: Any]):
            guard live.count == recorded.count else { return false }
            return recorded.allSatisfy { key, value in live[key].map { jsonMatches($0, recorded: value) } ?? false }
        case (let live as [Any], let recorded as [Any]):
            return live.count == recorded.count && zip(live, recorded).allSatisfy { jsonMatches($0, recorded: $1) }
        default:
            return leaf(live) == leaf(recorded)
        }
    }

    /// A scalar as JSON text, so numbers, strings, booleans and null compare the same way.
    private static func leaf(_ value: Any) -> Data? {
        try? JSONSerialization.data(withJSONObject: [value], options: [.fragmentsAllowed])
    }

    /// Decoded `(name, value)` pairs, or `nil` when the body does not look like a form.
    private static func formPairs(_ data: Data) -> [(name: String, value: String)]? {
        guard let text = String(data: data, encoding: .utf8), text.contains("="),
            !text.contains(where: { $0.isWhitespace || $0 == "{" || $0 == "<" })
        else { return nil }
        return FormFields.decode(text)
    }

    /// The same pairs in any order; a recorded `<redacted>` value matches any value of its name.
    private static func formMatches(_ live: [(name: String, value: String)], recorded: [(name: String, value: String)]) -> Bool {
        guard live.count == recorded.count else { return false }
        var unmatched = live
        for pair in recorded.sorted(by: { $0.value == Redaction.placeholder ? false : $1.value == Redaction.placeholder }) {
            let position =
                pair.value == Redaction.placeholder
                ? unmatched.firstIndex { $0.name == pair.name }
                : unmatched.firstIndex { $0 == pair }
            guard let position else { return false }
            unmatched.remove(at: position)
        }
        return true
    }
}
