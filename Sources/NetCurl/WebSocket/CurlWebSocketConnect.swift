#if canImport(CCurl)
    import NetRedaction
    import NetBase
    import CCurl
    import Foundation

    /// Opens the connection of a WebSocket with libcurl (`CURLOPT_CONNECT_ONLY`): TCP, the HTTP
    /// CONNECT or SOCKS proxy of the request, TLS with its ``TLSPolicy``; then NetKit speaks HTTP
    /// and RFC 6455 over it itself (libcurl 7.88 has no WebSocket support built in). The
    /// connecting runs on a WebSocket loop's multi handle, so it blocks no thread.
    enum CurlWebSocketConnect {
        /// A connection libcurl is making for a WebSocket: its easy handle (`CURLOPT_CONNECT_ONLY`:
        /// TCP, the request's proxy, TLS with its policy and pins), for a WebSocket loop's multi
        /// handle, and what must live until it is connected.
        struct Pending {
            let easy: UnsafeMutableRawPointer
            /// The pins the handshake checks (kept alive while libcurl may call back with them).
            let pins: CurlPinsHolder?
            let proxy: ProxyServer?
        }

        /// Sets up the easy handle that connects for `request`; the loop adds it to its multi
        /// handle and calls ``connected(_:code:errorBuffer:request:channel:)`` when libcurl is done.
        /// - Throws: ``NetworkError`` for a request libcurl refuses (nothing was sent).
        static func prepare(
            _ request: Request, configuration: CurlTransport.Configuration, channel: CurlWebSocketChannel,
            errorBuffer: UnsafeMutablePointer<CChar>
        ) throws(NetworkError) -> Pending {
            CurlGlobal.ensureInitialized()
            guard let easy = curl_easy_init() else { throw .transport(reason: "libcurl could not create a handle") }
            var prepared = false
            defer { if !prepared { curl_easy_cleanup(easy) } }
            _ = netkit_easy_setopt_long(easy, CURLOPT_NOSIGNAL, 1)
            _ = netkit_easy_setopt_ptr(easy, CURLOPT_ERRORBUFFER, errorBuffer)
            if configuration.verbose { _ = netkit_easy_setopt_long(easy, CURLOPT_VERBOSE, 1) }
            _ = netkit_easy_setopt_long(easy, CURLOPT_CONNECT_ONLY, 1)
            _ = netkit_easy_setopt_string(easy, CURLOPT_PROTOCOLS_STR, request.tls == nil ? "http,https" : "https")
            // The upgrade is HTTP/1.1 only (RFC 8441's HTTP/2 WebSockets are not offered).
            _ = netkit_easy_setopt_long(easy, CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_1_1))
            let timeout = CurlTransfer.milliseconds(request.timeout)
            _ = netkit_easy_setopt_long(easy, CURLOPT_TIMEOUT_MS, timeout)
            _ = netkit_easy_setopt_long(easy, CURLOPT_CONNECTTIMEOUT_MS, min(timeout, CurlTransfer.milliseconds(configuration.connectTimeout)))
            let pins = try applyTLS(request, to: easy)
            let proxy = CurlProxy.server(for: request, configuration: configuration)
            try CurlProxy.apply(proxy, to: easy)
            // A plain ws:// URL through an HTTP proxy still needs a tunnel: the proxy must not see frames.
            if proxy?.kind == .http { _ = netkit_easy_setopt_long(easy, CURLOPT_HTTPPROXYTUNNEL, 1) }
            _ = netkit_easy_setopt_ptr(easy, CURLOPT_XFERINFODATA, Unmanaged.passUnretained(channel).toOpaque())
            _ = netkit_easy_setopt_xferinfo_callback(easy) { context, _, _, _, _ in
                Unmanaged<CurlWebSocketChannel>.fromOpaque(context!).takeUnretainedValue().isCancelled ? 1 : 0
            }
            _ = netkit_easy_setopt_long(easy, CURLOPT_NOPROGRESS, 0)
            guard netkit_easy_setopt_string(easy, CURLOPT_URL, request.url.absoluteString) == CURLE_OK else {
                throw .invalidRequest(target: targetDescription(request.target), reason: "libcurl refused the URL")
            }
            errorBuffer[0] = 0
            prepared = true
            return Pending(easy: easy, pins: pins, proxy: proxy)
        }

        /// The socket of a connection libcurl finished making with `code`.
        /// - Throws: the ``NetworkError`` that names why it could not connect.
        static func connected(
            _ pending: Pending, code: CURLcode, errorBuffer: UnsafeMutablePointer<CChar>, request: Request, channel: CurlWebSocketChannel
        ) throws(NetworkError) -> CurlWebSocketSocket {
            guard code == CURLE_OK else {
                throw failure(
                    code, detail: String(cString: errorBuffer), easy: pending.easy, request: request, proxy: pending.proxy, channel: channel)
            }
            var descriptor: curl_socket_t = -1
            guard netkit_easy_getinfo_socket(pending.easy, CURLINFO_ACTIVESOCKET, &descriptor) == CURLE_OK, descriptor >= 0 else {
                throw .connectionLost(reason: "libcurl connected but has no socket for the WebSocket")
            }
            return CurlWebSocketSocket(easy: pending.easy, descriptor: descriptor)
        }

        private static func applyTLS(_ request: Request, to easy: UnsafeMutableRawPointer) throws(NetworkError) -> CurlPinsHolder? {
            guard let policy = request.tls, !policy.pinnedKeyHashes.isEmpty else {
                try CurlTLS.apply(request.tls, to: easy, host: request.host)
                return nil
            }
            let pins = CurlPinsHolder(policy.pinnedKeyHashes)
            try CurlTLS.apply(policy, to: easy, host: request.host, pinSource: .holder(pins))
            return pins
        }

        /// libcurl's connect failure as a ``NetworkError`` (no credentials in it).
        static func failure(
            _ code: CURLcode, detail rawDetail: String, easy: UnsafeMutableRawPointer, request: Request, proxy: ProxyServer?,
            channel: CurlWebSocketChannel
        ) -> NetworkError {
            // libcurl's message may quote the URL with its userinfo: every reason below carries it redacted.
            let detail = SecretRedactor.removingUserinfo(in: rawDetail.isEmpty ? String(cString: curl_easy_strerror(code)) : rawDetail)
            let host = request.host
            if channel.isCancelled { return .cancelled }
            if let proxy {
                var connectCode = 0
                _ = netkit_easy_getinfo_long(easy, CURLINFO_HTTP_CONNECTCODE, &connectCode)
                switch code {
                case CURLE_COULDNT_RESOLVE_PROXY:
                    return .proxyFailed(proxy: proxy.address, reason: "the proxy's host name could not be resolved")
                case CURLE_COULDNT_CONNECT: return .proxyFailed(proxy: proxy.address, reason: "could not connect to the proxy")
                case CURLE_PROXY: return .proxyFailed(proxy: proxy.address, reason: "the SOCKS proxy refused the connection")
                case CURLE_RECV_ERROR where connectCode != 0:
                    return .proxyFailed(proxy: proxy.address, reason: "the proxy answered CONNECT with \(connectCode)")
                default: break
                }
            }
            if let error = CurlTLS.clientCertificateFailure(
                code: Int(code.rawValue), detail: detail, host: host, identity: request.tls?.clientIdentity)
            {
                return error
            }
            let cause = CurlError(code: Int(code.rawValue), message: detail)
            switch code {
            case CURLE_COULDNT_RESOLVE_HOST: return .dnsFailure(host: host, underlying: cause)
            case CURLE_COULDNT_CONNECT:
                // Out of descriptors is this process's limit, not the server's fault: say so.
                var systemError = 0
                _ = netkit_easy_getinfo_long(easy, CURLINFO_OS_ERRNO, &systemError)
                if systemError == Int(EMFILE) || systemError == Int(ENFILE) {
                    return .transport(
                        reason: "no file descriptor left to open the WebSocket (errno \(systemError): too many open files); nothing was sent",
                        underlying: cause)
                }
                return .connectionFailed(host: host, reason: detail, underlying: cause)
            case CURLE_OPERATION_TIMEDOUT: return .timedOut
            case CURLE_ABORTED_BY_CALLBACK: return .cancelled
            case CURLE_SSL_PINNEDPUBKEYNOTMATCH: return .pinningFailed(host: host)
            case CURLE_PEER_FAILED_VERIFICATION where CurlHandshakePins.rejected(code, easy: easy): return .pinningFailed(host: host)
            case _ where CurlErrorMapping.isTLSFailure(code): return .tlsFailure(host: host, reason: detail, underlying: cause)
            default: return .transport(reason: "libcurl error \(code.rawValue) opening the WebSocket: \(detail)", underlying: cause)
            }
        }
    }

#endif
