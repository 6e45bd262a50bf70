import Foundation

extension Response {
    /// The file name the server suggests in `Content-Disposition` (`filename*=UTF-8''…` first,
    /// then `filename="…"`), else the last component of the request's URL path; made safe to
    /// use inside a folder of yours: only its last path component, no control characters, never
    /// `.`, `..` or a hidden name, at most 255 bytes. `nil` when nothing usable is left.
    ///
    /// ```swift
    /// var content: RequestContent { .downloadTo { response in downloads.appendingPathComponent(response.suggestedFilename ?? "download") } }
    /// ```
    public var suggestedFilename: String? {
        let fields = headers["Content-Disposition"].map(Self.dispositionParameters) ?? [:]
        var candidates: [String] = []
        if let extended = fields["filename*"], let decoded = Self.decodeExtendedValue(extended) { candidates.append(decoded) }
        if let plain = fields["filename"] { candidates.append(plain) }
        candidates.append(request.url.lastPathComponent)
        return candidates.lazy.compactMap(Self.safeFileName).first
    }

    /// `name=value` parameters of a `Content-Disposition` value, names lowercased, quotes removed.
    private static func dispositionParameters(_ value: String) -> [String: String] {
        var result: [String: String] = [:]
        for part in value.split(separator: ";").dropFirst() {
            guard let equals = part.firstIndex(of: "=") else { continue }
            let name = part[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
            var text = part[part.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            if text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") { text = String(text.dropFirst().dropLast()) }
            result[name] = text.replacingOccurrences(of: "\\\"", with: "\"")
        }
        return result
    }

    /// RFC 8187's `charset'language'percent-encoded` form; UTF-8 only.
    private static func decodeExtendedValue(_ value: String) -> String? {
        let parts = value.split(separator: "'", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].lowercased() == "utf-8" else { return nil }
        return String(parts[2]).removingPercentEncoding
    }

    /// `name` reduced to a plain file name, or `nil`.
    private static func safeFileName(_ name: String) -> String? {
        let last = name.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? ""
        var cleaned = String(last.unicodeScalars.filter { !CharacterSet.controlCharacters.contains($0) }.map(Character.init))
        cleaned = cleaned.trimmingCharacters(in: .whitespaces)
        while cleaned.hasPrefix(".") { cleaned.removeFirst() }
        while cleaned.utf8.count > 255 { cleaned.removeLast() }
        return cleaned.isEmpty ? nil : cleaned
    }
}
