import Foundation
import NetCore

/// The RFC 9111 rules ``CachePolicy/http`` stores and ages responses by, as a private cache.
enum HTTPFreshness {
    /// Statuses a response may be stored with without explicit freshness (RFC 9110 §15.1), and
    /// the only ones a heuristic lifetime applies to.
    static let heuristicStatuses: Set<Int> = [200, 203, 204, 300, 301, 308, 404, 405, 410, 414, 501]

    /// The longest heuristic lifetime: one week (the RFC sets no bound; 10% of a very old
    /// `Last-Modified` would otherwise keep a response fresh for months).
    static let heuristicLimit: TimeInterval = 7 * 86_400

    /// Methods known to be safe (RFC 9110 §9.2.1): a response to any other method invalidates.
    static func isSafe(_ method: HTTPMethod) -> Bool {
        method == .get || method == .head || method == .options || method.rawValue == "TRACE"
    }

    /// Whether the response may be stored by a private cache (RFC 9111 §3): GET or HEAD, a final
    /// status other than 206 and 304, no `no-store` on either side, and explicit freshness,
    /// `public`, `private` or a status cacheable by default.
    static func isStorable(
        status: Int, method: HTTPMethod, response: HTTPCacheDirectives, request: HTTPCacheDirectives,
        headers: HTTPHeaders
    ) -> Bool {
        guard method == .get || method == .head, status >= 200, status != 206, status != 304,
            !response.noStore, !request.noStore
        else { return false }
        return response.hasMaxAge || headers.contains("Expires") || response.isPublic || response.isPrivate
            || heuristicStatuses.contains(status)
    }

    /// The freshness lifetime in seconds (RFC 9111 §4.2.1): `no-cache` 0, else `max-age`, else
    /// `Expires` − `Date` (an invalid `Expires` is 0), else 10% of `Date` − `Last-Modified` for the
    /// statuses that allow a heuristic, else 0. A missing or invalid `Date` counts as
    /// `responseTime`.
    static func lifetime(
        status: Int, headers: HTTPHeaders, directives: HTTPCacheDirectives, responseTime: Date
    )
        -> TimeInterval
    {
        if directives.noCache { return 0 }
        if let maxAge = directives.maxAge { return TimeInterval(maxAge) }
        let date = headers["Date"].flatMap(HTTPDate.parse) ?? responseTime
        if let expires = headers["Expires"] {
            guard let expiry = HTTPDate.parse(expires) else { return 0 }
            return max(0, expiry.timeIntervalSince(date))
        }
        guard heuristicStatuses.contains(status), let lastModified = headers["Last-Modified"].flatMap(HTTPDate.parse)
        else { return 0 }
        return min(heuristicLimit, max(0, date.timeIntervalSince(lastModified) / 10))
    }

    /// The age the response already had on arrival (RFC 9111 §4.2.3 `corrected_initial_age`):
    /// the larger of `responseTime` − `Date` and `Age` plus the time the exchange took.
    static func initialAge(headers: HTTPHeaders, requestTime: Date, responseTime: Date) -> TimeInterval {
        let apparent = headers["Date"].flatMap(HTTPDate.parse).map { max(0, responseTime.timeIntervalSince($0)) } ?? 0
        let delay = max(0, responseTime.timeIntervalSince(requestTime))
        return max(apparent, TimeInterval(ageValue(headers) ?? 0) + delay)
    }

    /// The `Age` header: its first member when it is a list, `nil` when invalid (ignored, RFC 9111 §5.1).
    static func ageValue(_ headers: HTTPHeaders) -> Int? {
        guard let value = headers["Age"] else { return nil }
        let first = value.split(separator: ",", omittingEmptySubsequences: false).first.map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        return HTTPCacheDirectives.deltaSeconds(first)
    }
}
