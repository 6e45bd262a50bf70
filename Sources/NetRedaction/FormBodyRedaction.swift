import NetToolbox
import Foundation

/// Redacts `application/x-www-form-urlencoded` bodies field by field.
enum FormBodyRedaction {
    /// `body` with the values of secret fields (names percent-decoded, brackets stripped) replaced
    /// by the percent-encoded placeholder, and the decoded values it hid.
    static func redact(_ body: Data, rules: RedactionRules) -> (body: Data, hidden: [String]) {
        guard let text = String(data: body, encoding: .utf8) else { return (body, []) }
        var hidden: [String] = []
        var changed = false
        let pairs = text.split(separator: "&", omittingEmptySubsequences: false).map { pair -> Substring in
            guard let equals = pair.firstIndex(of: "=") else { return pair }
            let name = pair[..<equals]
            guard rules.redactsField(SecretRedactor.decodedName(name)) else { return pair }
            let value = String(pair[pair.index(after: equals)...])
            hidden.append(value)
            if let decoded = PercentEncoding.decode(value, plusAsSpace: true), decoded != value { hidden.append(decoded) }
            changed = true
            return name + "=" + SecretRedactor.encodedPlaceholder
        }
        guard changed else { return (body, []) }
        return (Data(pairs.joined(separator: "&").utf8), hidden)
    }
}
