import Foundation

/// One cookie kept by a ``CookieJar`` (the storage model of RFC 6265 §5.3).
///
/// Its ``description`` and mirror show the name and where the cookie goes, never its value:
/// a cookie is usually a credential.
public struct Cookie: Sendable, Hashable, CustomStringConvertible, CustomReflectable {
    /// The cookie's name (never empty).
    public let name: String
    /// The cookie's value, exactly as the server sent it.
    public let value: String
    /// The host it is sent to (`isHostOnly`) or the domain whose hosts it is sent to, in lower
    /// case and without a leading dot.
    public let domain: String
    /// The path prefix of the URLs it is sent with (`/` for the whole site).
    public let path: String
    /// Whether it goes to exactly ``domain`` (the server sent no `Domain` attribute) rather than
    /// to ``domain`` and its subdomains.
    package let isHostOnly: Bool
    /// Whether it is sent over https only (`Secure`).
    public let isSecure: Bool
    /// Whether the server marked it `HttpOnly`. Kept for the record; it makes no difference to
    /// requests, which are all HTTP.
    public let isHTTPOnly: Bool
    /// When it expires, or `nil` for a session cookie (kept in memory only, for as long as the
    /// jar lives; never written to a jar's file).
    public let expiresAt: Date?
    /// When it was first stored (a later cookie with the same name, domain and path keeps this
    /// date); cookies with equal paths are sent oldest first.
    package let createdAt: Date

    /// Creates a cookie value (a ``CookieJar`` creates them from `Set-Cookie` headers).
    package init(
        name: String, value: String, domain: String, path: String, isHostOnly: Bool, isSecure: Bool, isHTTPOnly: Bool,
        expiresAt: Date?, createdAt: Date
    ) {
        self.name = name
        self.value = value
        self.domain = domain
        self.path = path
        self.isHostOnly = isHostOnly
        self.isSecure = isSecure
        self.isHTTPOnly = isHTTPOnly
        self.expiresAt = expiresAt
        self.createdAt = createdAt
    }

    /// Whether it lives only as long as the jar (no `Max-Age` or `Expires`).
    package var isSession: Bool { expiresAt == nil }

    /// `session=<redacted>; Domain=example.com (host-only); Path=/; Secure`: never the value.
    public var description: String {
        var text = "\(name)=<redacted>; Domain=\(domain)\(isHostOnly ? " (host-only)" : ""); Path=\(path)"
        if isSecure { text += "; Secure" }
        if isHTTPOnly { text += "; HttpOnly" }
        if let expiresAt { text += "; Expires=\(expiresAt)" }
        return text
    }

    /// A mirror without the value, so that `dump` and reflection cannot print it.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "name": name, "value": "<redacted>", "domain": domain, "path": path, "isHostOnly": isHostOnly,
                "isSecure": isSecure, "isHTTPOnly": isHTTPOnly, "expiresAt": expiresAt as Any, "createdAt": createdAt,
            ], displayStyle: .struct)
    }

    /// Whether it goes with a request to `host` and `path` (RFC 6265 §5.4): its host or domain,
    /// below its path, `Secure` only over a secure channel, not expired at `now`. The one rule
    /// for every store: the jar's, and a session's `HTTPCookieStorage` read through NetKit.
    package func isSent(toHost host: String, path requestPath: String, secure: Bool, at now: Date) -> Bool {
        (isHostOnly ? domain == host : CookieDomain.matches(host: host, domain: domain)) && (!isSecure || secure)
            && !isExpired(at: now) && CookieDomain.pathMatches(requestPath, cookiePath: path)
    }

    /// Whether the cookie has expired at `now`.
    func isExpired(at now: Date) -> Bool {
        guard let expiresAt else { return false }
        return expiresAt <= now
    }

    /// The same cookie with another creation date (a replacement keeps the first one's).
    func created(at date: Date) -> Cookie {
        Cookie(
            name: name, value: value, domain: domain, path: path, isHostOnly: isHostOnly, isSecure: isSecure,
            isHTTPOnly: isHTTPOnly, expiresAt: expiresAt, createdAt: date)
    }
}
