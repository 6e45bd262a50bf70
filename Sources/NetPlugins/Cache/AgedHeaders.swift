import NetToolbox
import NetCore

/// A stored response's headers with the `Age` field a hit must carry (RFC 9111 §5.1), kept for
/// the last age asked: every hit within the same second shares one copy instead of copying the
/// stored fields again. Made for one set of headers (a ``CacheEntry`` makes a new one whenever
/// its headers change).
final class AgedHeaders: Sendable {
    private let stored: HTTPHeaders
    /// The last age asked, in whole seconds, and the headers made for it.
    private let last = Locked<(seconds: Int64, headers: HTTPHeaders)?>(nil)

    init(_ stored: HTTPHeaders) {
        self.stored = stored
    }

    /// The stored headers with `Age: seconds`.
    func headers(age seconds: Int64) -> HTTPHeaders {
        if let remembered = last.withLock({ $0?.seconds == seconds ? $0?.headers : nil }) { return remembered }
        var headers = stored
        headers["Age"] = String(seconds)
        last.withLock { $0 = (seconds, headers) }
        return headers
    }
}
