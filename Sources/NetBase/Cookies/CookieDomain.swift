import Foundation

/// Host names, domain matching and path matching for cookies (RFC 6265 §5.1.2-§5.1.4).
enum CookieDomain {
    /// The request host as cookies compare it: lower case, without IPv6 brackets or a trailing
    /// dot; `nil` for a URL without a host.
    static func host(of url: URL) -> String? {
        guard var host = url.host?.lowercased(), !host.isEmpty else { return nil }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if host.hasSuffix(".") { host.removeLast() }
        return host.isEmpty ? nil : host
    }

    /// Whether `host` is an IP address: IPv6 (it has a colon), or a last label made of digits
    /// (IPv4 in any of the forms resolvers accept, such as `127.1`; no top-level domain is numeric).
    static func isIPAddress(_ host: String) -> Bool {
        if host.contains(":") { return true }
        guard let last = host.split(separator: ".").last else { return false }
        let label = last.lowercased()
        if label.hasPrefix("0x") { return label.dropFirst(2).allSatisfy(\.isHexDigit) }
        return label.allSatisfy(\.isASCII) && label.allSatisfy(\.isNumber)
    }

    /// §5.1.3: `host` is `domain`, or a name that ends with `.` + `domain` (never an IP address).
    static func matches(host: String, domain: String) -> Bool {
        if host == domain { return true }
        return host.hasSuffix("." + domain) && !isIPAddress(host)
    }

    /// §5.1.4: the directory of the request path: `/a/b/c` → `/a/b`, `/a` or `` → `/`.
    static func defaultPath(of url: URL) -> String {
        let path = requestPath(of: url)
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "/" }
        return String(path[..<slash])
    }

    /// The URL's path as sent (percent-encoded), `/` when empty.
    static func requestPath(of url: URL) -> String {
        let path = URLComponents(url: url, resolvingAgainstBaseURL: true)?.percentEncodedPath ?? url.path
        return path.hasPrefix("/") ? path : "/"
    }

    /// §5.1.4: `requestPath` is `cookiePath`, or lies below it (`/docs` matches `/docs/a` but
    /// not `/docsearch`).
    static func pathMatches(_ requestPath: String, cookiePath: String) -> Bool {
        let request = requestPath.utf8, cookie = cookiePath.utf8
        guard request.starts(with: cookie) else { return false }
        if request.count == cookie.count || cookie.last == UInt8(ascii: "/") { return true }
        return request.dropFirst(cookie.count).first == UInt8(ascii: "/")
    }

    /// The domains a cookie sent to `host` may be stored under: the host, then each parent.
    static func candidateDomains(of host: String) -> [String] {
        guard !isIPAddress(host) else { return [host] }
        var domains = [host]
        var rest = Substring(host)
        while let dot = rest.firstIndex(of: ".") {
            rest = rest[rest.index(after: dot)...]
            if !rest.isEmpty { domains.append(String(rest)) }
        }
        return domains
    }

    /// Whether `domain` is a public suffix, under which anyone can register a site: every
    /// one-label name (`com`, `dev`, `local`, …) and the names in ``publicSuffixes``.
    static func isPublicSuffix(_ domain: String) -> Bool {
        !domain.contains(".") || publicSuffixes.contains(domain)
    }
}
