import NetCore

/// A stored response's headers with the `Age` field a hit must carry (RFC 9111 §5.1), kept for
/// the last age asked: every hit within the same second shares one copy instead of copying the
/// stored fields again.
final class AgedHeaders: Sendable {
    /// The last age asked, in whole seconds, and the headers made for it.
    private let last = Locked<(seconds: Int64, headers: HTTPHeaders)?>(nil)

    /// `stored` with `Age: seconds`.
    func headers(_ stored: HTTPHeaders, age seconds: Int64) -> HTTPHeaders {
        if let remembered = last.withLock({ $0?.seconds == seconds ? $0?.headers : nil }) { return remembered }
        var headers = stored
        headers["Age"] = String(seconds)
        last.withLock { $0 = (seconds, headers) }
        return headers
    }
}
