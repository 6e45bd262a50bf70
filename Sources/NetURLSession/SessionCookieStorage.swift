#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import Foundation
import NetBase

/// The cookie store of a `URLSessionConfiguration` a caller gave ``URLSessionTransport``
/// (`httpCookieStorage` set and `httpShouldSetCookies` on), honoured hop by hop.
///
/// The session itself never touches cookies (NetKit follows redirects itself, so URLSession's
/// own handling would miss every hop but the first): each hop NetKit sends gets the store's
/// cookies for its URL, and each response's `Set-Cookie` fields go into the store, by
/// Foundation's rules (`HTTPCookie`) and the configuration's accept policy. A request that
/// carries a ``CookieJar`` (``ProviderConfiguration/cookieJar``) uses that jar instead.
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
            let pairs = (storage.cookies(for: url) ?? []).filter { !excluded.contains($0.name) }.map { "\($0.name)=\($0.value)" }
            return pairs.isEmpty ? nil : pairs.joined(separator: "; ")
        }
        var response = try await send(sent)
        if acceptsCookies {
            let cookies = response.headers.values(for: "Set-Cookie").flatMap { field in
                HTTPCookie.cookies(withResponseHeaderFields: ["Set-Cookie": field], for: url)
            }
            if !cookies.isEmpty { storage.setCookies(cookies, for: url, mainDocumentURL: url) }
        }
        response.request = request
        return response
    }
}
