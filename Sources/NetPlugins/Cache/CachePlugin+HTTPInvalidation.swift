import Foundation
import NetCore

/// ``CachePolicy/http``: responses to unsafe methods invalidate (RFC 9111 §4.4).
extension CachePlugin {
    /// After a non-error (1xx–3xx) response to a method not known to be safe, removes the GET
    /// and HEAD entries of the request URL and of the same-origin `Location` and
    /// `Content-Location` URLs, under the keys this request's headers give them (its
    /// credentials, its key headers, its target's version).
    func invalidateIfUnsafe(_ response: Response, for request: Request) async {
        guard !HTTPFreshness.isSafe(request.method), response.statusCode < 400, response.source != .cache else {
            return
        }
        let rule = rule(for: request.originalTarget)
        guard rule.policy == .http else { return }
        var urls = [request.url]
        for name in ["Location", "Content-Location"] {
            guard let value = response.headers[name], let url = URL(string: value, relativeTo: request.url)?.absoluteURL,
                Self.sameOrigin(url, request.url)
            else { continue }
            urls.append(url)
        }
        let digest = credentials.digest(of: request.headers)
        for url in urls {
            for method in [HTTPMethod.get, .head] {
                let probe = Request(method: method, url: url, headers: request.headers, target: request.target)
                if let key = key(for: probe, rule: rule, credentialDigest: digest) { await storage.remove(for: key) }
            }
        }
    }

    /// Same scheme, host and port (default ports filled in).
    static func sameOrigin(_ a: URL, _ b: URL) -> Bool {
        func origin(_ url: URL) -> (String, String, Int)? {
            guard let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased() else { return nil }
            return (scheme, host, url.port ?? (scheme == "https" ? 443 : scheme == "http" ? 80 : -1))
        }
        guard let x = origin(a), let y = origin(b) else { return false }
        return x == y
    }
}
