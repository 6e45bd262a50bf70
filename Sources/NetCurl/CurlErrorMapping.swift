#if canImport(CCurl)
    import NetRedaction
    import NetBase
    import CCurl
    import Foundation

    /// Maps libcurl result codes (`CURLE_*`) to ``NetworkError`` values a person can act on, with
    /// the ``CurlError`` (the public value of code and message) as their cause.
    enum CurlErrorMapping {
        /// The error for a transfer libcurl ended with `code`; its ``NetworkError/underlyingError``
        /// is the ``CurlError`` with libcurl's own message.
        static func map(_ code: CURLcode, transfer: CurlTransfer) -> NetworkError {
            let detail = transfer.handle.errorMessage ?? String(cString: curl_easy_strerror(code))
            let cause = CurlError(code: Int(code.rawValue), message: SecretRedactor.removingUserinfo(in: detail))
            return classify(code, detail: detail, transfer: transfer).causedBy(cause)
        }

        /// `CURLE_TOO_LARGE` (100: a header or value past libcurl's own bound), which libcurl 8.6
        /// added; the 7.88 headers NetKit builds against do not name it.
        static let tooLarge = CURLcode(rawValue: 100)

        /// Whether `code` says the TLS handshake failed (the certificate, the peer's verification,
        /// the client's identity or the TLS library itself).
        static func isTLSFailure(_ code: CURLcode) -> Bool {
            switch code {
            case CURLE_SSL_CONNECT_ERROR, CURLE_SSL_ENGINE_NOTFOUND, CURLE_SSL_ENGINE_SETFAILED, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER,
                CURLE_PEER_FAILED_VERIFICATION, CURLE_USE_SSL_FAILED, CURLE_SSL_ENGINE_INITFAILED, CURLE_SSL_CACERT_BADFILE,
                CURLE_SSL_SHUTDOWN_FAILED, CURLE_SSL_CRL_BADFILE, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_INVALIDCERTSTATUS, CURLE_SSL_CLIENTCERT:
                true
            default: false
            }
        }

        private static func classify(_ code: CURLcode, detail: String, transfer: CurlTransfer) -> NetworkError {
            let host = transfer.request.host
            if let proxy = CurlProxy.server(for: transfer.request, configuration: transfer.configuration),
                let error = CurlProxy.failure(code, detail: detail, server: proxy, transfer: transfer)
            {
                return error
            }
            if let error = CurlTLS.clientCertificateFailure(
                code: Int(code.rawValue), detail: detail, host: host, identity: transfer.request.tls?.clientIdentity)
            {
                return error
            }
            switch code {
            case CURLE_UNSUPPORTED_PROTOCOL:
                let scheme = transfer.request.url.scheme?.lowercased()
                if scheme == "http" || scheme == "https" {
                    // Redirects are never followed by libcurl, so an http(s) URL gets here only
                    // when the server's reply is not HTTP (a malformed status line).
                    return .invalidResponse(reason: "the status line is not HTTP: \(detail)")
                }
                return .invalidRequest(
                    target: targetDescription(transfer.request.target), reason: "unsupported URL scheme \(scheme ?? "(none)"); only http and https are allowed")
            case CURLE_URL_MALFORMAT:
                return .invalidRequest(target: targetDescription(transfer.request.target), reason: "malformed URL: \(detail)")
            case CURLE_COULDNT_RESOLVE_PROXY:  // only with a proxy, mapped by CurlProxy above
                return .proxyFailed(proxy: "(unknown)", reason: "the proxy could not be resolved: \(detail)")
            case CURLE_COULDNT_RESOLVE_HOST:
                return .dnsFailure(host: host)
            case CURLE_COULDNT_CONNECT:
                return .connectionFailed(host: host, reason: detail)
            case CURLE_OPERATION_TIMEDOUT:
                return .timedOut
            case CURLE_TOO_MANY_REDIRECTS:
                return .redirectRefused(reason: "more than \(transfer.configuration.maxRedirects) redirects (a redirect loop?)")
            case CURLE_SSL_PINNEDPUBKEYNOTMATCH:
                return .pinningFailed(host: host)
            case CURLE_PEER_FAILED_VERIFICATION where CurlHandshakePins.rejected(code, easy: transfer.handle.easy):  // the pin check inside the handshake
                return .pinningFailed(host: host)
            case _ where isTLSFailure(code):
                return .tlsFailure(host: host, reason: detail)
            case CURLE_GOT_NOTHING:
                return .connectionLost(reason: "the server closed the connection without answering (\(detail))")
            case CURLE_SEND_ERROR, CURLE_RECV_ERROR:
                // Bad chunked framing and HTTP/2 frames nghttp2 refuses arrive as receive errors;
                // they are the server's fault, not a transient loss, so they must not be retried as one.
                let text = detail.lowercased()
                if text.contains("chunk") {
                    return .invalidResponse(reason: "the chunked body is malformed: \(detail)")
                }
                if text.contains("nghttp2") {
                    return .invalidResponse(reason: "the server broke the HTTP/2 protocol: \(detail)")
                }
                return .connectionLost(reason: detail)
            case CURLE_HTTP2:  // the connection's framing layer
                return .invalidResponse(reason: "the server broke the HTTP/2 protocol: \(detail)")
            case CURLE_HTTP2_STREAM:  // the stream was reset (by the server, or by nghttp2 for a malformed response)
                return http2StreamFailure(detail: detail, transfer: transfer)
            case CURLE_PARTIAL_FILE:
                return truncation(of: transfer)
            case CURLE_BAD_CONTENT_ENCODING:
                return .invalidResponse(reason: "the body's Content-Encoding could not be decoded: \(detail)")
            case CURLE_WEIRD_SERVER_REPLY, tooLarge:
                return .invalidResponse(reason: detail)
            case CURLE_OUT_OF_MEMORY where !transfer.headersComplete:  // libcurl's own header-line bound
                return .invalidResponse(reason: "a response header line is larger than the headers limit (libcurl accepts 100 KiB per line)")
            case CURLE_WRITE_ERROR:
                return .fileSystem(reason: "could not store the response: \(detail)")
            case CURLE_READ_ERROR:
                return .transport(reason: "could not read the request body: \(detail)")
            case CURLE_SEND_FAIL_REWIND:
                return .connectionLost(reason: "the body had to be sent again and could not be rewound: \(detail)")
            default:
                return .transport(reason: "libcurl error \(code.rawValue): \(detail)")
            }
        }

        /// A reset HTTP/2 stream: a protocol violation (nghttp2 resets a stream whose response is
        /// malformed) is `.invalidResponse`; a reset after the head cut the body short; a reset
        /// before any head (an overloaded server's INTERNAL_ERROR) may be tried again.
        private static func http2StreamFailure(detail: String, transfer: CurlTransfer) -> NetworkError {
            let violations = ["PROTOCOL_ERROR", "FRAME_SIZE_ERROR", "COMPRESSION_ERROR", "FLOW_CONTROL_ERROR", "before getting"]
            if violations.contains(where: detail.contains) {
                return .invalidResponse(reason: "the server broke the HTTP/2 protocol: \(detail)")
            }
            if transfer.headersComplete { return truncation(of: transfer) }
            return .connectionLost(reason: "HTTP/2 stream reset before the response: \(detail)")
        }

        /// The body ended before its framing said it was complete.
        private static func truncation(of transfer: CurlTransfer) -> NetworkError {
            var expected: curl_off_t = -1, received: curl_off_t = 0
            _ = netkit_easy_getinfo_off_t(transfer.handle.easy, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &expected)
            _ = netkit_easy_getinfo_off_t(transfer.handle.easy, CURLINFO_SIZE_DOWNLOAD_T, &received)
            let offset = transfer.download?.appending == true ? transfer.download!.resumeOffset : 0
            return .truncatedResponse(expected: expected >= 0 ? Int64(expected) + offset : nil, received: Int64(received) + offset)
        }
    }
#endif
