import Foundation

/// The ``RequestContext`` key behind ``Request/cookieJar``.
enum CookieJarContextKey: RequestContextKey {
    /// No jar: nothing is added or kept.
    static let defaultValue: CookieJar? = nil
}

extension Request {
    /// The cookie jar this request's hops read from and store into, or `nil` (the default) for
    /// none: then only a `Cookie` header in ``headers`` is sent, and nothing is kept.
    ///
    /// The provider sets it from ``ProviderConfiguration/cookieJar``; a plugin may set or clear
    /// it in ``Plugin/prepare(_:)``, and a request handed to a transport directly may carry one.
    /// Transports that follow redirects apply it on every hop (``TransportCapabilities/cookieJar``);
    /// for other transports (stubs, replay) the provider applies it around the whole exchange.
    public var cookieJar: CookieJar? {
        get { context[CookieJarContextKey.self] }
        set { context[CookieJarContextKey.self] = newValue }
    }
}

extension CookieJar {
    /// Sends one hop through `send`: with the cookies of ``Request/cookieJar`` for its URL, whose
    /// `Set-Cookie` headers are then stored, whatever the status. The one place a jar meets the
    /// wire: every redirect hop of both built-in transports, and the provider's exchange with a
    /// transport that does not follow redirects itself. The response carries `request` as it was
    /// given (without the jar's header).
    package static func exchange(_ request: Request, _ send: (Request) async throws -> Response) async throws -> Response {
        guard let jar = request.cookieJar else { return try await send(request) }
        var response = try await send(jar.addingCookies(to: request))
        let setCookie = response.headers.values(for: "Set-Cookie")
        if !setCookie.isEmpty { jar.storeCookies(fromSetCookieFields: setCookie, receivedFrom: request.url) }
        response.request = request
        return response
    }

    /// `request` with the jar's cookies for its URL added to its `Cookie` header: after a header
    /// the caller set, leaving out the names it already carries.
    func addingCookies(to request: Request) -> Request {
        Self.addingCookies(to: request) { excluded in cookieHeader(for: request.url, excluding: excluded) }
    }

    /// `request` with the pairs `header` gives (`a=1; b=2`, or `nil` for none) added to its
    /// `Cookie` header: after a header the caller set; `header` is handed the names that header
    /// already carries, to leave out. Shared by every cookie store a transport applies.
    package static func addingCookies(to request: Request, header: (Set<String>) -> String?) -> Request {
        let existing = request.headers["Cookie"].flatMap { $0.trimmingCharacters(in: .whitespaces).isEmpty ? nil : $0 }
        guard let header = header(existing.map(Self.names) ?? []) else { return request }
        var sent = request
        sent.headers["Cookie"] = existing.map { $0 + "; " + header } ?? header
        return sent
    }

    /// The cookie names in a `Cookie` header value (`a=1; b=2` → a, b).
    private static func names(in header: String) -> Set<String> {
        Set(
            header.split(separator: ";").map { pair in
                let name = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
                return name.trimmingCharacters(in: .whitespaces)
            })
    }
}
