import Foundation
import NetCore

/// How old a stored entry is under ``CachePolicy/http`` and what that allows (RFC 9111 §4.2,
/// §5.2.1, RFC 5861).
struct HTTPJudgement {
    /// The stored response's headers (its directives are read from them only when needed).
    let headers: HTTPHeaders
    /// The RFC's `current_age`.
    let age: Duration
    /// The freshness lifetime, capped by the plugin's or the target's age limit.
    let lifetime: Duration

    init(entry: CacheEntry, limit: Duration?, at time: Date) {
        headers = entry.headers
        age = entry.age(at: time)
        var lifetime =
            entry.maxAge
            ?? Duration(
                seconds: HTTPFreshness.lifetime(
                    status: entry.statusCode, headers: entry.headers, directives: HTTPCacheDirectives(entry.headers),
                    responseTime: entry.storedAt),
                roundedToNanoseconds: .towardZero)
        if let limit { lifetime = min(lifetime, limit) }
        self.lifetime = lifetime
    }

    var isFresh: Bool { lifetime > age }

    /// How long the entry has been stale (zero while fresh).
    var staleness: Duration { max(.zero, age - lifetime) }

    /// The stored response's directives (parsed only when staleness makes them matter).
    var control: HTTPCacheDirectives { HTTPCacheDirectives(headers) }

    /// Whether the entry answers a request with `asked` directives without contacting the origin:
    /// fresh (and fresh enough for `min-fresh`), or stale within `max-stale` when the response
    /// allows serving it stale; never for `no-cache` or `max-age=0`, nor older than `max-age`.
    func satisfies(_ asked: HTTPCacheDirectives) -> Bool {
        if asked.noCache { return false }
        if let maxAge = asked.maxAge, maxAge == 0 || age > .seconds(maxAge) { return false }
        if isFresh {
            guard let minFresh = asked.minFresh else { return true }
            return lifetime - age >= .seconds(minFresh)
        }
        guard let maxStale = asked.maxStale, servesStale else { return false }
        return maxStale == .max || staleness <= .seconds(maxStale)
    }

    /// Whether the stale entry may answer now while a revalidation runs in the background:
    /// within the response's `stale-while-revalidate` window, and the request asked for no
    /// validation (`no-cache`, `max-age`).
    func allowsRevalidationInBackground(_ asked: HTTPCacheDirectives) -> Bool {
        guard !isFresh, !asked.noCache, asked.maxAge == nil, servesStale,
            let window = control.staleWhileRevalidate
        else { return false }
        return staleness <= .seconds(window)
    }

    /// Whether the entry may answer when the origin failed: `stale-if-error` (the response's or
    /// the request's, the larger window) bounds the staleness; without one, a transport failure
    /// (the disconnected case of RFC 9111 §4.2.4) allows any staleness and a server error none.
    func allowsServingOnError(_ asked: HTTPCacheDirectives, transportFailure: Bool) -> Bool {
        if isFresh { return transportFailure || control.staleIfError != nil || asked.staleIfError != nil }
        guard servesStale else { return false }
        let windows = [control.staleIfError, asked.staleIfError].compactMap { $0 }
        guard let window = windows.max() else { return transportFailure }
        return staleness <= .seconds(window)
    }

    /// Whether the response allows being served stale at all: not `must-revalidate`, not `no-cache`.
    private var servesStale: Bool {
        let control = control
        return !control.mustRevalidate && !control.noCache
    }
}
