#if canImport(CCurl)
    import NetBase
    import Foundation

    /// The parts of a request's options that are plain text: worked out in the caller's task before
    /// the request reaches the loop thread, which then only hands them to libcurl.
    struct CurlRequestHead: Sendable {
        /// The URL as libcurl reads it.
        let url: String
        /// The method name in capitals, for comparisons (libcurl is given the request's own spelling).
        let method: String
        /// Whether a body is sent (POST, PUT and PATCH always send one, empty if need be).
        let sendsBody: Bool
        /// Header lines in libcurl's syntax, the body's suppressions included.
        let headerLines: [String]
        /// A `Proxy-Authorization` line the request carried: it belongs to a proxy, so it never
        /// goes to the origin (``CurlProxy`` hands it to the proxy, or drops it without one).
        let proxyAuthorizationLine: String?
        /// Whether the URL is `https` (HTTP/2 and stream weights apply).
        let isHTTPS: Bool
        /// The proxy the request goes through (bypass list applied), or `nil` for none.
        let proxy: ProxyServer?
        /// The request's TLS policy as the handle pool compares it, or `nil` for none.
        let tlsFingerprint: CurlTLSFingerprint?

        /// Works out `request`'s options; `proxies` is the transport's proxy configuration (the
        /// request's own ``Request/proxy`` replaces it).
        init(_ request: Request, proxies: ProxyConfiguration?) {
            url = request.url.absoluteString
            isHTTPS = url.utf8.starts(with: "https:".utf8) { ($0 | 0x20) == $1 }
            proxy = (request.proxy ?? proxies)?.proxy(for: request.url)
            tlsFingerprint = request.tls.map(CurlTLSFingerprint.init)
            method = request.method.rawValue.uppercased()
            if method == "HEAD" {
                sendsBody = false
            } else if case .none = request.body {
                sendsBody = method == "POST" || method == "PUT" || method == "PATCH"
            } else {
                sendsBody = true
            }
            var lines: [String] = []
            lines.reserveCapacity(request.headers.count + 2)
            var hasContentType = false, hasExpect = false, hasUserAgent = false
            var proxyAuthorization: String?
            for field in request.headers {
                if HTTPHeaders.sameName(field.name, "Proxy-Authorization") {
                    proxyAuthorization = field.name + ": " + field.value
                    continue
                }
                if HTTPHeaders.sameName(field.name, "User-Agent") { hasUserAgent = true }
                // libcurl sets Content-Length from the body; a second one would make the request invalid.
                if HTTPHeaders.sameName(field.name, "Content-Length") { continue }
                if HTTPHeaders.sameName(field.name, "Content-Type") { hasContentType = true }
                if HTTPHeaders.sameName(field.name, "Expect") { hasExpect = true }
                // "Name;" is libcurl's syntax for a header with an empty value ("Name:" would remove it).
                lines.append(field.value.isEmpty ? field.name + ";" : field.name + ": " + field.value)
            }
            // libcurl sends no User-Agent of its own; some servers refuse requests without one.
            if !hasUserAgent { lines.append("User-Agent: " + NetKitInfo.userAgent) }
            if sendsBody {
                // libcurl would add a form Content-Type to a POST without one, and Expect: 100-continue
                // (a round trip) to larger bodies.
                if !hasContentType { lines.append("Content-Type:") }
                if !hasExpect { lines.append("Expect:") }
            }
            headerLines = lines
            proxyAuthorizationLine = proxyAuthorization
        }
    }
#endif
