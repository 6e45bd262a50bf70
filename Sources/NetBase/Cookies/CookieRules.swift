import Foundation

/// The storage rules of RFC 6265 §5.3 (with the `Secure` rules of RFC 6265bis): whether a
/// `Set-Cookie` line received from a URL may be kept, and as which ``Cookie``.
package enum CookieRules {
    /// The longest lifetime a cookie gets, however far its `Max-Age` or `Expires` lies (400 days,
    /// as RFC 6265bis asks).
    static let maxLifetime: TimeInterval = 400 * 86_400

    /// The cookie `line` makes when received from `url` at `now`, or `nil` when it must be
    /// ignored. An expired cookie (`Max-Age=0`, an `Expires` in the past) is returned: storing it
    /// removes the cookie it replaces.
    static func cookie(from line: SetCookieLine, receivedFrom url: URL, at now: Date) -> Cookie? {
        guard let host = CookieDomain.host(of: url) else { return nil }
        let secureOrigin = isSecure(url)
        // A Secure cookie is only accepted from https (RFC 6265bis §5.7).
        if line.secure, !secureOrigin { return nil }
        let domain: String
        let hostOnly: Bool
        if let attribute = line.domain {
            if attribute == host {
                // A host may name itself; an IP address or a public suffix (a host such as
                // `github.io` itself) then gets a host-only cookie, never one for its neighbours.
                hostOnly = CookieDomain.isIPAddress(host) || CookieDomain.isPublicSuffix(host)
            } else {
                guard !CookieDomain.isIPAddress(host), !CookieDomain.isPublicSuffix(attribute),
                    CookieDomain.matches(host: host, domain: attribute)
                else { return nil }
                hostOnly = false
            }
            domain = attribute
        } else {
            domain = host
            hostOnly = true
        }
        let path = line.path ?? CookieDomain.defaultPath(of: url)
        guard prefixRulesHold(line, path: path) else { return nil }
        return Cookie(
            name: line.name, value: line.value, domain: domain, path: path, isHostOnly: hostOnly, isSecure: line.secure,
            isHTTPOnly: line.httpOnly, expiresAt: expiry(of: line, at: now), createdAt: now)
    }

    /// The cookie a `Set-Cookie` field makes when received from `url` at `now` by every rule of
    /// the jar (§5.2 parsing, §5.3 storage, public suffixes, prefixes), or `nil` when it must be
    /// ignored: for cookie stores kept outside a ``CookieJar`` (a session's `HTTPCookieStorage`).
    package static func cookie(fromSetCookieField field: String, receivedFrom url: URL, at now: Date) -> Cookie? {
        SetCookieLine.parse(Substring(field)).flatMap { cookie(from: $0, receivedFrom: url, at: now) }
    }

    /// Whether a cookie with these attributes (a leading dot on `domain` marks a domain cookie,
    /// as `HTTPCookie` writes it) goes with a request to `url` at `now`, by
    /// ``Cookie/isSent(toHost:path:secure:at:)``: for stores kept outside a ``CookieJar``.
    package static func isSent(domain: String, path: String, isSecure: Bool, expiresAt: Date?, to url: URL, at now: Date) -> Bool {
        guard let host = CookieDomain.host(of: url) else { return false }
        let lowered = domain.lowercased()
        let cookie = Cookie(
            name: "", value: "", domain: lowered.hasPrefix(".") ? String(lowered.dropFirst()) : lowered, path: path,
            isHostOnly: !lowered.hasPrefix("."), isSecure: isSecure, isHTTPOnly: false, expiresAt: expiresAt, createdAt: now)
        return cookie.isSent(toHost: host, path: CookieDomain.requestPath(of: url), secure: Self.isSecure(url), at: now)
    }

    /// Whether `url` is a secure origin (https).
    static func isSecure(_ url: URL) -> Bool { url.scheme?.lowercased() == "https" }

    /// `Max-Age` wins over `Expires`; a zero or negative age is "already expired"; every lifetime
    /// is capped at ``maxLifetime``; neither attribute makes a session cookie (`nil`).
    private static func expiry(of line: SetCookieLine, at now: Date) -> Date? {
        if let maxAge = line.maxAge {
            guard maxAge > 0 else { return .distantPast }
            return now.addingTimeInterval(min(TimeInterval(maxAge), maxLifetime))
        }
        guard let expires = line.expires else { return nil }
        return min(expires, now.addingTimeInterval(maxLifetime))
    }

    /// The name prefixes of RFC 6265bis §4.1.3: `__Secure-` needs `Secure`; `__Host-` needs
    /// `Secure`, no `Domain` and `Path=/` (a cookie for exactly this https host).
    private static func prefixRulesHold(_ line: SetCookieLine, path: String) -> Bool {
        let lowered = line.name.lowercased()
        if lowered.hasPrefix("__secure-") { return line.secure }
        if lowered.hasPrefix("__host-") { return line.secure && line.domain == nil && path == "/" }
        return true
    }
}
