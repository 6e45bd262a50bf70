#if canImport(CCurl)
    import NetRedaction
    import NetBase
    import CCurl
    import Foundation

    /// Opens the connection of a WebSocket with libcurl (`CURLOPT_CONNECT_ONLY`): TCP, the HTTP
    /// CONNECT or SOCKS proxy of the request, TLS with its ``TLSPolicy``; then NetKit speaks HTTP
    /// and RFC 6455 over it itself (libcurl 7.88 has no WebSocket support built in).
    enum CurlWebSocketConnect {
        /// An easy handle connected for `request`, or the error naming why not. Blocks the
        /// calling thread (a WebSocket's own I/O thread) for at most the request's timeout;
        /// `channel`'s cancellation aborts it.
        static func connect(
            _ request: Request, configuration: CurlTransport.Configuration, channel: CurlWebSocketChannel,
            errorBuffer: UnsafeMutablePointer<CChar>
        ) throws(NetworkError) -> CurlWebSocketSocket {
            CurlGlobal.ensureInitialized()
            guard let easy = curl_easy_init() else { throw .transport(reason: "libcurl could not create a handle") }
            var connected = false
            defer { if !connected { curl_easy_cleanup(easy) } }
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
            let code = withExtendedLifetime(pins) { curl_easy_perform(easy) }
            guard code == CURLE_OK else {
                throw failure(code, detail: String(cString: errorBuffer), easy: easy, request: request, proxy: proxy, channel: channel)
            }
            var descriptor: curl_socket_t = -1
            guard netkit_easy_getinfo_socket(easy, CURLINFO_ACTIVESOCKET, &descriptor) == CURLE_OK, descriptor >= 0 else {
                throw .connectionLost(reason: "libcurl connected but has no socket for the WebSocket")
            }
            connected = true
            return CurlWebSocketSocket(easy: easy, descriptor: descriptor)
        }

        /// The request's TLS policy, with its pins checked during the handshake (before a client
        /// certificate is sent) as for other requests; a WebSocket handle has no transfer behind
        /// it, so the check reads a ``CurlPinsHolder``.
        /// - Returns: What the handshake's callback reads; keep it alive until the handle connected.
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
            case CURLE_COULDNT_CONNECT: return .connectionFailed(host: host, reason: detail, underlying: cause)
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
