/// Matches field names against a set of secret names: case-insensitively, and after stripping
/// brackets, so that every component of `user[password]` or `token[]` is compared on its own.
package enum SecretName {
    /// Whether `name`, or one of its bracket-separated components, is in `names` (lowercased).
    ///
    /// `user[password]` matches `password`, `token[]` and `token[0]` match `token`,
    /// `Password` matches `password`.
    package static func matches(_ name: some StringProtocol, in names: Set<String>) -> Bool {
        guard !names.isEmpty, !name.isEmpty else { return false }
        let lowered = name.lowercased()
        if names.contains(lowered) { return true }
        guard lowered.utf8.contains(where: { $0 == UInt8(ascii: "[") || $0 == UInt8(ascii: "]") }) else { return false }
        return components(ofLowercased: lowered).contains { names.contains($0) }
    }

    /// The lowercased, non-empty components of `name` between brackets: `a[b][]` gives `a`, `b`.
    package static func components(of name: some StringProtocol) -> [String] {
        components(ofLowercased: name.lowercased())
    }

    private static func components(ofLowercased name: String) -> [String] {
        name.split(whereSeparator: { $0 == "[" || $0 == "]" })
            .map { $0.trimmingWhitespace() }
            .filter { !$0.isEmpty }
    }
}

private extension Substring {
    func trimmingWhitespace() -> String {
        var slice = self[...]
        while let first = slice.first, first == " " || first == "\t" { slice = slice.dropFirst() }
        while let last = slice.last, last == " " || last == "\t" { slice = slice.dropLast() }
        return String(slice)
    }
}
