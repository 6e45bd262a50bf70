import Foundation

/// Media-type matching for ``Validation/contentTypes(_:accepted:)``.
enum ContentTypeMatch {
    /// Whether `contentType` (a `Content-Type` value, parameters allowed) matches one of `accepted`.
    static func matches(_ contentType: String?, _ accepted: [String]) -> Bool {
        let actual = contentType.map(mediaType) ?? ""
        return accepted.map(mediaType).contains { pattern in
            if pattern == "*/*" { return true }
            guard !actual.isEmpty else { return false }
            if pattern.hasSuffix("/*") { return actual.hasPrefix(pattern.dropLast()) }
            return actual == pattern
        }
    }

    /// The media ranges an `Accept` header lists, without parameters; ranges with `q=0` are left out.
    static func acceptedTypes(in accept: String?) -> [String] {
        guard let accept else { return [] }
        return accept.split(separator: ",").compactMap { range in
            let parts = range.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let type = parts.first, !type.isEmpty else { return nil }
            let refused = parts.dropFirst().contains {
                $0.replacingOccurrences(of: " ", with: "").lowercased().hasPrefix("q=0") && Double($0.split(separator: "=").last ?? "1") == 0
            }
            return refused ? nil : type
        }
    }

    /// `type/subtype` in lower case, without parameters.
    private static func mediaType(_ value: String) -> String {
        (value.split(separator: ";").first.map(String.init) ?? value).trimmingCharacters(in: .whitespaces).lowercased()
    }
}
