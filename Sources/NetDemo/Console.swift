#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import Foundation

/// What the demo knows about where its output goes, and how it shortens long text.
enum Console {
    /// Whether standard output is a terminal: only then are lines redrawn in place with `\r`.
    static let isTerminal = isatty(STDOUT_FILENO) == 1

    /// `text` on one line, cut at a word boundary to at most about `limit` characters, with
    /// " …" when something was cut. Never cuts inside a word (a first word longer than `limit`
    /// is kept whole).
    static func excerpt(_ text: String, limit: Int = 160) -> String {
        let words = text.split(whereSeparator: \.isWhitespace)
        var kept = ""
        for word in words {
            if !kept.isEmpty, kept.count + 1 + word.count > limit { return kept + " …" }
            kept += kept.isEmpty ? String(word) : " " + word
        }
        return kept
    }

    /// Writes a line to standard error.
    static func error(_ line: String) {
        fflush(nil)
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
