#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import Foundation
import NetBase

/// The cookie store of a `URLSessionConfiguration` a caller gave ``URLSessionTransport``
/// (`httpCookieStorage` set and `httpShouldSetCookies` on), honoured hop by hop.
///
/// The session itself never touches cookies (NetKit follows redirects itself, so URLSession's
/// own handling would miss every hop but the first). The store keeps the cookies, but NetKit's
/// rules decide, as for a ``CookieJar``: a `Set-Cookie` field is stored only when the jar would
/// keep it (public suffixes, `Domain` and `Secure` rules, prefixes), and a stored cookie goes
/// with a hop only when RFC 6265 §5.4 allows (domain, path, `Secure` only over https, not
/// expired; FoundationNetworking's own lookup checks the host alone). The configuration's accept
/// policy `.never` keeps nothing; each hop is its own main document. A request that carries a
/// ``CookieJar`` (``ProviderConfiguration/cookieJar``) uses that jar instead.
struct SessionCookieStorage: Sendable {
    let storage: HTTPCookieStorage
    /// `false` when the configuration's accept policy is `.never`: cookies are sent, none kept.
    let acceptsCookies: Bool

    /// The store `configuration` asks for, or `nil` when it asks for none.
    init?(_ configuration: URLSessionConfiguration) {
        guard configuration.httpShouldSetCookies, let storage = configuration.httpCookieStorage else { return nil }
        self.storage = storage
        self.acceptsCookies = configuration.httpCookieAcceptPolicy != .never
    }

    /// Sends one hop through `send` with the store's cookies, keeping what the response sets.
    func exchange(_ request: Request, _ send: (Request) async throws -> Response) async throws -> Response {
        guard request.cookieJar == nil else { return try await send(request) }
        let url = request.url
        let sent = CookieJar.addingCookies(to: request) { excluded in
            let pairs = cookies(for: url).filter { !excluded.contains($0.name) }.map { "\($0.name)=\($0.value)" }
            return pairs.isEmpty ? nil : pairs.joined(separator: "; ")
        }
        var response = try await send(sent)
        if acceptsCookies { store(response.headers.values(for: "Set-Cookie"), from: url) }
        response.request = request
        return response
    }

    /// The stored cookies that may go to `url` now.
    func cookies(for url: URL) -> [HTTPCookie] {
        let now = Date()
        return (storage.cookies(for: url) ?? []).filter { cookie in
            CookieRules.isSent(
                domain: cookie.domain, path: cookie.path, isSecure: cookie.isSecure, expiresAt: cookie.expiresDate, to: url, at: now)
        }
    }

    /// Keeps the cookies of `fields` that the jar's rules accept from `url`; an expired one
    /// removes the stored cookie it names.
    func store(_ fields: [String], from url: URL) {
        let now = Date()
        for field in fields {
            guard let cookie = CookieRules.cookie(fromSetCookieField: field, receivedFrom: url, at: now) else { continue }
            let domain = cookie.isHostOnly ? cookie.domain : "." + cookie.domain
            for stored in storage.cookies(for: url) ?? []
            where stored.name == cookie.name && stored.path == cookie.path && stored.domain.lowercased() == domain {
                storage.deleteCookie(stored)
            }
            if let expiry = cookie.expiresAt, expiry <= now { continue }
            var properties: [HTTPCookiePropertyKey: Any] = [
                .name: cookie.name, .value: cookie.value, .domain: domain, .path: cookie.path,
            ]
            if cookie.isSecure { properties[.secure] = "TRUE" }
            if let expiry = cookie.expiresAt { properties[.expires] = expiry }
            if let made = HTTPCookie(properties: properties) { storage.setCookie(made) }
        }
    }
}
