import NetToolbox
import Foundation

extension SecretRedactor {
    /// How a body is redacted.
    package enum BodyFormat: Sendable, Hashable {
        /// JSON: the values of secret keys at any depth.
        case json
        /// `application/x-www-form-urlencoded`: the values of secret fields.
        case form
        /// `multipart/*` with its boundary: the contents of parts with secret names.
        case multipart(boundary: String)
        /// Anything else, text or binary: only known secret values are replaced.
        case other
    }

    /// The format of a body, from its content type (or, without one, from a leading `{` or `[`).
    package static func format(contentType: String?, body: Data) -> BodyFormat {
        guard let type = contentType?.lowercased() else {
            let first = JSONWhitespace.firstSignificantByte(of: body)
            return first == UInt8(ascii: "{") || first == UInt8(ascii: "[") ? .json : .other
        }
        let mediaType = type.split(separator: ";", maxSplits: 1).first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        if mediaType.hasSuffix("json") || mediaType.hasSuffix("+json") { return .json }
        if mediaType == "application/x-www-form-urlencoded" { return .form }
        if mediaType.hasPrefix("multipart/"), let boundary = parameter("boundary", in: contentType ?? "") { return .multipart(boundary: boundary) }
        return .other
    }

    /// `body` redacted by structure for its content type (JSON keys at any depth, form fields,
    /// multipart part names), then with every known secret replaced in what remains. Text or
    /// binary alike: the result never holds a known secret's bytes. Returns `body` itself when
    /// nothing had to change.
    package static func redact(body: Data, contentType: String?, secrets: KnownSecrets, rules: RedactionRules = .default) -> Data {
        guard !body.isEmpty else { return body }
        let structured = redactStructure(body, format: format(contentType: contentType, body: body), rules: rules).body
        return secrets.scrub(structured)
    }

    /// The structural step alone: `body` with secret fields replaced, and the values it hid
    /// (so that they can be looked for elsewhere).
    static func redactStructure(_ body: Data, format: BodyFormat, rules: RedactionRules) -> (body: Data, hidden: [String]) {
        switch format {
        case .json: JSONBodyRedaction.redact(body, rules: rules)
        case .form: FormBodyRedaction.redact(body, rules: rules)
        case .multipart(let boundary): MultipartBodyRedaction.redact(body, boundary: boundary, rules: rules)
        case .other: (body, [])
        }
    }

    /// The value of parameter `name` in a header value such as `multipart/form-data; boundary=x`
    /// (quotes removed), or `nil`.
    package static func parameter(_ name: String, in headerValue: String) -> String? {
        for part in headerValue.split(separator: ";").dropFirst() {
            guard let equals = part.firstIndex(of: "=") else { continue }
            guard part[..<equals].trimmingCharacters(in: .whitespaces).lowercased() == name else { continue }
            var value = part[part.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = String(value.dropFirst().dropLast()) }
            return value.isEmpty ? nil : value
        }
        return nil
    }
}
