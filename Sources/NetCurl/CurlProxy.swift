#if canImport(CCurl)
    import NetRedaction
    import NetToolbox
    import NetBase
    import CCurl
    import Foundation

    /// Turns a ``ProxyConfiguration`` into easy-handle options, and libcurl's proxy failures into
    /// ``NetworkError/proxyFailed(proxy:reason:underlying:)``.
    ///
    /// The proxy for a transfer is decided here, in Swift, from the request's override
    /// (``Request/proxy``) or the transport's configuration and the hop's URL (bypass list
    /// included). libcurl is then told exactly that: `CURLOPT_PROXY` names the proxy or is `""`,
    /// and `CURLOPT_NOPROXY` is `""`, so libcurl never reads `*_PROXY` / `NO_PROXY` from the
    /// environment by itself, and error mapping knows for certain whether a proxy was in the path.
    enum CurlProxy {
        /// The proxy `request` goes through, or `nil` for a direct connection.
        static func server(for request: Request, configuration: CurlTransport.Configuration) -> ProxyServer? {
            (request.proxy ?? configuration.proxy)?.proxy(for: request.url)
        }

        /// Sets the options for going through `server` (or directly, for `nil`) on `easy` (always,
        /// so that the environment is ignored).
        static func apply(_ server: ProxyServer?, to easy: UnsafeMutableRawPointer) throws(NetworkError) {
            _ = netkit_easy_setopt_string(easy, CURLOPT_NOPROXY, "")
            guard let server else {
                // "" disables proxies, including those named by environment variables.
                _ = netkit_easy_setopt_string(easy, CURLOPT_PROXY, "")
                return
            }
            guard netkit_easy_setopt_string(easy, CURLOPT_PROXY, server.address) == CURLE_OK else {
                throw .proxyFailed(proxy: server.address, reason: "this libcurl build does not support the proxy; the request was not sent")
            }
            let type = server.kind == .http ? CURLPROXY_HTTP : CURLPROXY_SOCKS5_HOSTNAME
            _ = netkit_easy_setopt_long(easy, CURLOPT_PROXYTYPE, Int(type.rawValue))
            // The proxy's "200 Connection established" is not part of the origin's response.
            _ = netkit_easy_setopt_long(easy, CURLOPT_SUPPRESS_CONNECT_HEADERS, 1)
            if let username = server.username {
                _ = netkit_easy_setopt_string(easy, CURLOPT_PROXYUSERNAME, username)
            }
            if let password = server.password {
                _ = netkit_easy_setopt_string(easy, CURLOPT_PROXYPASSWORD, password)
            }
        }

        /// The proxy error for a failed transfer that went through `server`, or `nil` when the
        /// failure is not the proxy's (the caller maps it as usual).
        static func failure(
            _ code: CURLcode, detail: String, server: ProxyServer, transfer: CurlTransfer
        ) -> NetworkError? {
            let detail = redact(detail, server: server)
            let proxy = server.address
            switch code {
            case CURLE_COULDNT_RESOLVE_PROXY:
                return .proxyFailed(proxy: proxy, reason: "the proxy's host name could not be resolved (\(detail))")
            case CURLE_COULDNT_CONNECT:  // with a proxy, only the proxy is connected to
                return .proxyFailed(proxy: proxy, reason: "could not connect to the proxy (\(detail))")
            case CURLE_PROXY:  // SOCKS handshake or authentication
                return .proxyFailed(proxy: proxy, reason: socksReason(detail, server: server, url: transfer.request.url))
            case CURLE_SEND_ERROR, CURLE_RECV_ERROR:  // a CONNECT answered with something other than 2xx
                var status = 0
                _ = netkit_easy_getinfo_long(transfer.handle.easy, CURLINFO_HTTP_CONNECTCODE, &status)
                guard status >= 300 || detail.contains("CONNECT") else { return nil }
                return .proxyFailed(proxy: proxy, reason: connectReason(status, server: server, url: transfer.request.url, detail: detail))
            default:
                return nil
            }
        }

        /// Why a SOCKS handshake failed, from libcurl's message (its wording is stable across
        /// 7.7x and 8.x: "No authentication method was acceptable", "User was rejected by the
        /// SOCKS5 server", "Can't complete SOCKS5 connection to host. (reply code)").
        private static func socksReason(_ detail: String, server: ProxyServer, url: URL) -> String {
            let text = detail.lowercased()
            if text.contains("no authentication method was acceptable") {
                return server.username != nil
                    ? "the SOCKS proxy accepts none of the offered authentication methods (\(detail))"
                    : "the SOCKS proxy requires authentication; set a username and password on the ProxyServer (\(detail))"
            }
            if text.contains("rejected") {
                return "the SOCKS proxy rejected the credentials; check the proxy's username and password (\(detail))"
            }
            if text.contains("can't complete socks5 connection") {
                return "the SOCKS proxy refused or could not reach \(destination(of: url)) (\(detail))"
            }
            return "the proxy handshake failed (\(detail))"
        }

        /// Why a `CONNECT` failed, from its status code.
        private static func connectReason(_ status: Int, server: ProxyServer, url: URL, detail: String) -> String {
            let target = destination(of: url)
            switch status {
            case 401, 407:
                return server.username != nil
                    ? "the proxy rejected the credentials (\(status)); check the proxy's username and password"
                    : "the proxy requires authentication (\(status)); set a username and password on the ProxyServer"
            case 403:
                return "the proxy refused to open a tunnel to \(target) (403); its access rules do not allow this destination or port"
            case 0:
                return "the tunnel to \(target) could not be opened (\(detail))"
            default:
                return "the proxy could not open a tunnel to \(target) (response \(status))"
            }
        }

        /// `host:port` of the origin a proxy was asked to reach.
        private static func destination(of url: URL) -> String {
            "\(url.host ?? "?"):\(url.port ?? defaultPort(forScheme: url.scheme?.lowercased() ?? "") ?? 80)"
        }

        /// `text` with the proxy's password removed (libcurl never quotes it; this is a safeguard).
        private static func redact(_ text: String, server: ProxyServer) -> String {
            guard let password = server.password, !password.isEmpty else { return text }
            return text.replacingOccurrences(of: password, with: SecretRedactor.placeholder)
        }
    }
#endif
