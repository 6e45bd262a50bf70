import Foundation

/// Checks on a response's framing that every transport applies the same way.
package enum ResponseIntegrity {
    /// The one `Content-Length` that `values` (each a field value, maybe a comma-separated list)
    /// announce. Differing or malformed values make the response invalid (RFC 9112 §6.3): a
    /// reader and an intermediary could disagree on where the body ends.
    package static func contentLength(_ values: [String]) -> Result<Int64, NetworkError> {
        var length: Int64?
        for value in values {
            for part in value.split(separator: ",", omittingEmptySubsequences: false) {
                let text = part.trimmingCharacters(in: .whitespaces)
                guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let parsed = Int64(text) else {
                    return .failure(.invalidResponse(reason: "the Content-Length \"\(text.prefix(40))\" is not a number"))
                }
                if let length, length != parsed {
                    return .failure(.invalidResponse(reason: "the response announces two different Content-Length values (\(length) and \(parsed))"))
                }
                length = parsed
            }
        }
        guard let length else {
            return .failure(.invalidResponse(reason: "the Content-Length header is empty"))
        }
        return .success(length)
    }
}
