import NetBase
import NetToolbox
import Foundation

/// Checks on a response's framing that every transport applies the same way.
package enum ResponseIntegrity {
    /// The one `Content-Length` that `values` (each a field value, maybe a comma-separated list)
    /// announce. Differing or malformed values make the response invalid (RFC 9112 §6.3): a
    /// reader and an intermediary could disagree on where the body ends.
    package static func contentLength(_ values: [String]) -> Result<Int64, NetworkError> {
        var length: Int64?
        for value in values {
            // Bytes, not Foundation trimming: the curl engine calls this on its loop thread for
            // every response.
            for part in value.utf8.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false) {
                let digits = OptionalWhitespace.trimming(part)
                guard let parsed = decimal(digits) else {
                    let text = String(decoding: digits.prefix(40), as: UTF8.self)
                    return .failure(.invalidResponse(reason: "the Content-Length \"\(text)\" is not a number"))
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

    /// The value of a non-empty run of ASCII digits, or `nil` (anything else, or past `Int64.max`).
    private static func decimal(_ digits: Substring.UTF8View.SubSequence) -> Int64? {
        guard !digits.isEmpty else { return nil }
        var value: Int64 = 0
        for byte in digits {
            guard byte >= 0x30, byte <= 0x39 else { return nil }
            let (shifted, overflowShift) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflowAdd) = shifted.addingReportingOverflow(Int64(byte - 0x30))
            guard !overflowShift, !overflowAdd else { return nil }
            value = sum
        }
        return value
    }
}
