import Foundation

extension Response {
    /// One short line for logs and `print`: status, method, redacted URL, then the size of the
    /// body (or where a download was saved), the time the exchange took when the transport
    /// measured it, where the response came from when it was not the network, and the attempt
    /// when it was not the first.
    ///
    /// `200 GET https://api.example.com/users/1 (95 bytes, 12 ms)`,
    /// `503 GET https://api.example.com/health (0 bytes, 3.4 ms, attempt 3)`,
    /// `200 GET https://api.example.com/users/1 (95 bytes, from cache)`.
    ///
    /// The URL is redacted as in every NetKit message (userinfo removed, secret query values
    /// replaced); header values and the body are never shown.
    public var description: String {
        var details: [String] = [fileURL.map { "saved to \($0.path)" } ?? Self.byteCount(data.count)]
        if let duration = metrics?.duration { details.append(Self.milliseconds(duration)) }
        switch source {
        case .network: break
        case .cache: details.append("from cache")
        case .stub: details.append("stub")
        }
        if request.attempt > 1 { details.append("attempt \(request.attempt)") }
        return "\(statusCode) \(request.description) (\(details.joined(separator: ", ")))"
    }

    private static func byteCount(_ count: Int) -> String {
        count == 1 ? "1 byte" : "\(count) bytes"
    }

    /// Whole milliseconds from 10 ms on, one decimal below.
    private static func milliseconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let value = Double(seconds) * 1000 + Double(attoseconds) / 1e15
        return value >= 10 ? "\(Int(value.rounded())) ms" : "\((value * 10).rounded() / 10) ms"
    }
}
