import Foundation

/// Which redirects a transport follows, and what a followed redirect may carry.
///
/// Both built-in transports follow redirects themselves, one hop at a time, with these rules
/// (`RedirectFollower`), so every hop gets the same treatment whichever transport runs:
///
/// - `301`, `302`, `303`, `307` and `308` with a `Location` are followed; other statuses are returned.
/// - `303`, and `301`/`302` after a `POST`, continue as `GET` without a body; `307` and `308` keep
///   the method and send the body again.
/// - Only `http` and `https` targets are followed; `https` → `http` is refused unless
///   ``allowsDowngrade``.
/// - The origin is scheme + host + port. A hop to another origin drops `Authorization`,
///   `Proxy-Authorization`, `Cookie` and every name in ``sensitiveHeaders`` (unless
///   ``dropsAuthorizationAcrossHosts`` is off), and gets the TLS policy chosen for its own URL
///   (`redirectTLS`), never the previous hop's.
public struct RedirectPolicy: Sendable, Hashable {
    /// Whether redirects are followed at all.
    public var follows: Bool
    /// Whether a redirect from https to http is followed (off by default: it would leak data).
    public var allowsDowngrade: Bool
    /// Whether credential headers are removed when a redirect leaves the origin (on by default).
    /// The name is historical: the rule compares origins (scheme, host and port), not only hosts.
    public var dropsAuthorizationAcrossHosts: Bool
    /// More header names (any case) removed on a cross-origin redirect, beside `Authorization`,
    /// `Proxy-Authorization` and `Cookie`: API keys in custom headers, for example.
    public var sensitiveHeaders: Set<String>

    /// Creates a policy.
    public init(
        follows: Bool = true, allowsDowngrade: Bool = false, dropsAuthorizationAcrossHosts: Bool = true,
        sensitiveHeaders: Set<String> = []
    ) {
        self.follows = follows
        self.allowsDowngrade = allowsDowngrade
        self.dropsAuthorizationAcrossHosts = dropsAuthorizationAcrossHosts
        self.sensitiveHeaders = sensitiveHeaders
    }

    /// Follow redirects, refuse https→http, drop credentials across origins.
    public static let secure = RedirectPolicy()
    /// Never follow: the 3xx response is returned as it is.
    public static let none = RedirectPolicy(follows: false)

    /// Headers that always leave a request that crosses origins.
    package static let credentialHeaders: Set<String> = ["authorization", "proxy-authorization", "cookie"]

    /// What to do after `response` answered `request`.
    package func decision(after response: Response, to request: Request) -> RedirectDecision {
        guard follows, Self.followedStatuses.contains(response.statusCode), let location = response.headers["Location"] else {
            return .stop
        }
        guard let target = URL(string: location.trimmingCharacters(in: .whitespaces), relativeTo: request.url)?.absoluteURL,
            let scheme = target.scheme?.lowercased(), target.host?.isEmpty == false
        else {
            return .refuse(.redirectRefused(reason: "the Location header of a \(response.statusCode) from \(request.host) is not a valid http(s) URL"))
        }
        guard scheme == "http" || scheme == "https" else {
            return .refuse(.redirectRefused(reason: "a redirect to the \(scheme) scheme is not followed (only http and https)"))
        }
        let fromHTTPS = request.url.scheme?.lowercased() == "https"
        // A request under a TLS policy never continues over plain http, whatever the policy allows.
        if request.tls != nil, scheme != "https" {
            return .refuse(.redirectRefused(reason: "\(request.host) has a TLS policy (pins or trusted certificates) but the redirect leads to plain http"))
        }
        if fromHTTPS, scheme == "http", !allowsDowngrade {
            return .refuse(.redirectRefused(reason: "redirect from https to http (to \(target.host ?? "")) is not allowed"))
        }
        var next = request
        next.url = Self.withoutFragment(target)
        let crossesOrigin = Origin(request.url) != Origin(next.url)
        if crossesOrigin {
            if dropsAuthorizationAcrossHosts {
                let dropped = Self.credentialHeaders.union(sensitiveHeaders.map { $0.lowercased() })
                for field in request.headers where dropped.contains(field.name.lowercased()) {
                    next.headers[field.name] = nil
                }
            }
            // A policy set without a per-origin resolver was chosen for this origin only: the next
            // origin would run under the system's trust, so the hop fails closed instead.
            if request.tls != nil, request.redirectTLS == nil {
                return .refuse(
                    .redirectRefused(
                        reason: "\(request.host) has a TLS policy but no per-origin rule for the redirect to \(Origin(next.url)); "
                            + "set Request.redirectTLS (PinningPlugin does) to follow it"))
            }
            next.tls = request.redirectTLS?.policy(for: next.url)
        }
        if next.tls != nil, scheme != "https" {
            return .refuse(.redirectRefused(reason: "\(next.host) has a TLS policy (pins or trusted certificates) but the redirect to it uses plain http"))
        }
        let method = request.method.rawValue.uppercased()
        let becomesGET = response.statusCode == 303 ? method != "HEAD" : (response.statusCode == 301 || response.statusCode == 302) && method == "POST"
        if becomesGET {
            next.method = .get
            next.body = .none
            for name in ["Content-Type", "Content-Length", "Transfer-Encoding"] { next.headers[name] = nil }
        }
        return .follow(next)
    }

    private static let followedStatuses: Set<Int> = [301, 302, 303, 307, 308]

    private static func withoutFragment(_ url: URL) -> URL {
        guard url.fragment != nil, var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url }
        components.fragment = nil
        return components.url ?? url
    }
}

/// The outcome of ``RedirectPolicy/decision(after:to:)``.
package enum RedirectDecision: Sendable {
    /// Send this request next.
    case follow(Request)
    /// Return the response as it is.
    case stop
    /// Fail with this error.
    case refuse(NetworkError)
}
