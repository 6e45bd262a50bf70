import Foundation
import NetCore

/// A `curl` command line that repeats a request (for `LoggerPlugin`), with redacted values left
/// redacted.
enum CurlCommandLine {
    static func make(for request: Request, redaction: Redaction, secrets: [String]) -> String {
        var parts = ["curl"]
        if request.method != .get || request.body.contentLength ?? 0 > 0 {
            parts.append("-X " + quote(request.method.rawValue))
        }
        if request.method == .head { parts = ["curl", "--head"] }
        for (name, value) in redaction.redact(request.headers) {
            parts.append("-H " + quote("\(name): \(value)"))
        }
        switch request.body {
        case .none:
            break
        case .file(let url):
            parts.append("--data-binary " + quote("@" + url.path))
        case .data, .multipart:
            if let data = request.body.inMemoryData, !data.isEmpty {
                if let text = String(data: data, encoding: .utf8) {
                    parts.append("--data-binary " + quote(Redaction.scrub(text, secrets: secrets)))
                } else {
                    parts.append("--data-binary '<\(data.count) binary bytes>'")
                }
            } else if request.body.inMemoryData == nil {
                parts.append("--data-binary '<multipart body with files>'")
            }
        }
        parts.append(quote(redaction.redact(request.url)))
        return parts.joined(separator: " ")
    }

    /// Single-quotes for POSIX shells.
    static func quote(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
