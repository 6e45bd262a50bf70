import Foundation

/// How many cookies a ``CookieJar`` keeps.
package struct CookieLimits: Sendable, Hashable {
    /// The most cookies for one domain (or host); past it the least recently used goes.
    package var perDomain: Int
    /// The most cookies in the whole jar; past it the least recently used goes.
    package var total: Int

    /// Creates limits; the defaults are those of RFC 6265 §6.1's minimums, as browsers keep.
    package init(perDomain: Int = 50, total: Int = 3000) {
        self.perDomain = max(1, perDomain)
        self.total = max(1, total)
    }
}

/// The cookies of a jar, by domain, with the limits applied (a value kept in the jar's lock).
struct CookieStore {
    /// A stored cookie, with what eviction and ordering need.
    struct Entry {
        var cookie: Cookie
        var lastAccess: Date
        /// Order of first storage, which a replacement keeps: breaks ties of dates.
        var sequence: UInt64
    }

    let limits: CookieLimits
    private var domains: [String: [Entry]] = [:]
    private(set) var count = 0
    /// How many `Secure` cookies have each name, so that most cookies skip the shadowing scan.
    private var secureNames: [String: Int] = [:]
    private var nextSequence: UInt64 = 0
    /// Numbers the snapshots a jar writes to its file (see `CookieJar.change`).
    var generation: UInt64 = 0

    init(limits: CookieLimits) {
        self.limits = limits
    }

    /// Stores `cookie`, replacing the one with the same name, domain and path (whose creation
    /// date it keeps); an expired `cookie` only removes that one. Returns whether a cookie was
    /// added, changed or removed (a use date alone does not count).
    ///
    /// A cookie from an insecure origin is ignored when it would replace or shadow a `Secure`
    /// cookie of the same name (RFC 6265bis §5.7).
    mutating func store(_ cookie: Cookie, fromSecureOrigin: Bool, now: Date, lastAccess: Date? = nil) -> Bool {
        if !cookie.isSecure, !fromSecureOrigin, shadowsSecureCookie(cookie) { return false }
        var entries = domains[cookie.domain] ?? []
        var kept = cookie
        var sequence: UInt64?
        var replaced: Cookie?
        if let index = entries.firstIndex(where: { $0.cookie.name == cookie.name && $0.cookie.path == cookie.path }) {
            let old = entries.remove(at: index)
            kept = cookie.created(at: old.cookie.createdAt)
            sequence = old.sequence
            replaced = old.cookie
        }
        if cookie.isExpired(at: now) {
            save(entries, for: cookie.domain)
            return replaced != nil
        }
        if sequence == nil {
            sequence = nextSequence
            nextSequence += 1
        }
        entries.append(Entry(cookie: kept, lastAccess: lastAccess ?? now, sequence: sequence ?? 0))
        entries.removeAll { $0.cookie.isExpired(at: now) }
        while entries.count > limits.perDomain, let index = Self.leastRecentlyUsed(in: entries) {
            entries.remove(at: index)
        }
        save(entries, for: cookie.domain)
        if count > limits.total { evictOverTotal(now: now) }
        return replaced != kept  // the same cookie again changes nothing a file keeps
    }

    /// The cookies to send to `host` at `path`, longest paths first, then oldest first; marks
    /// them used when `touch` is set (eviction removes the least recently used first).
    mutating func cookies(forHost host: String, path: String, secure: Bool, now: Date, touch: Bool) -> [Cookie] {
        var found: [Entry] = []
        for domain in CookieDomain.candidateDomains(of: host) {
            guard var entries = domains[domain] else { continue }
            var touched = false
            for index in entries.indices {
                let cookie = entries[index].cookie
                guard cookie.isSent(toHost: host, path: path, secure: secure, at: now) else { continue }
                if touch {
                    entries[index].lastAccess = now
                    touched = true
                }
                found.append(entries[index])
            }
            if touched { save(entries, for: domain) }
        }
        return found.sorted(by: Self.sendingOrder).map(\.cookie)
    }

    /// Every cookie, expired ones left out, in sending order within each domain.
    func all(at now: Date) -> [Cookie] {
        domains.keys.sorted().flatMap { domain in
            (domains[domain] ?? []).filter { !$0.cookie.isExpired(at: now) }.sorted(by: Self.sendingOrder).map(\.cookie)
        }
    }

    /// What a jar's file keeps: unexpired cookies with an expiry date, in storage order.
    func persistentEntries(at now: Date) -> [Entry] {
        domains.values.joined().filter { !$0.cookie.isSession && !$0.cookie.isExpired(at: now) }.sorted { $0.sequence < $1.sequence }
    }

    /// Removes the cookies `predicate` selects; returns whether any was removed.
    mutating func remove(where predicate: (Cookie) -> Bool) -> Bool {
        let before = count
        for (domain, entries) in domains {
            let remaining = entries.filter { !predicate($0.cookie) }
            if remaining.count != entries.count { save(remaining, for: domain) }
        }
        return count != before
    }

    /// Every change goes through here, which keeps ``count`` and the `Secure` names up to date.
    private mutating func save(_ entries: [Entry], for domain: String) {
        let old = domains[domain] ?? []
        for entry in old where entry.cookie.isSecure {
            let left = (secureNames[entry.cookie.name] ?? 1) - 1
            secureNames[entry.cookie.name] = left > 0 ? left : nil
        }
        for entry in entries where entry.cookie.isSecure { secureNames[entry.cookie.name, default: 0] += 1 }
        count += entries.count - old.count
        domains[domain] = entries.isEmpty ? nil : entries
    }

    /// RFC 6265bis §5.7: a stored `Secure` cookie of the same name whose domain and `cookie`'s
    /// match either way and whose path covers `cookie`'s path.
    private func shadowsSecureCookie(_ cookie: Cookie) -> Bool {
        guard secureNames[cookie.name] != nil else { return false }
        return domains.values.joined().contains { entry in
            let old = entry.cookie
            return old.isSecure && old.name == cookie.name
                && (CookieDomain.matches(host: old.domain, domain: cookie.domain) || CookieDomain.matches(host: cookie.domain, domain: old.domain))
                && CookieDomain.pathMatches(cookie.path, cookiePath: old.path)
        }
    }

    /// Removes expired cookies, then the least recently used, until the total limit holds.
    private mutating func evictOverTotal(now: Date) {
        _ = remove { $0.isExpired(at: now) }
        while count > limits.total {
            var oldest: (domain: String, index: Int, entry: Entry)?
            for (domain, entries) in domains {
                guard let index = Self.leastRecentlyUsed(in: entries) else { continue }
                if let current = oldest, !Self.isLessRecentlyUsed(entries[index], than: current.entry) { continue }
                oldest = (domain, index, entries[index])
            }
            guard let oldest, var entries = domains[oldest.domain] else { return }
            entries.remove(at: oldest.index)
            save(entries, for: oldest.domain)
        }
    }

    private static func leastRecentlyUsed(in entries: [Entry]) -> Int? {
        entries.indices.min { isLessRecentlyUsed(entries[$0], than: entries[$1]) }
    }

    private static func isLessRecentlyUsed(_ lhs: Entry, than rhs: Entry) -> Bool {
        lhs.lastAccess != rhs.lastAccess ? lhs.lastAccess < rhs.lastAccess : lhs.sequence < rhs.sequence
    }

    /// RFC 6265 §5.4: longer paths first, then earlier creation (then earlier storage).
    private static func sendingOrder(_ lhs: Entry, _ rhs: Entry) -> Bool {
        let left = lhs.cookie.path.utf8.count, right = rhs.cookie.path.utf8.count
        if left != right { return left > right }
        if lhs.cookie.createdAt != rhs.cookie.createdAt { return lhs.cookie.createdAt < rhs.cookie.createdAt }
        return lhs.sequence < rhs.sequence
    }
}
