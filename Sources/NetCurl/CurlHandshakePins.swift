#if canImport(CCurl)
    import NetBase
    import CCurl
    import CCurlOpenSSL
    import Foundation

    /// Checks a request's public-key pins inside the TLS handshake, while OpenSSL verifies the
    /// server's chain, so a server whose key is not pinned (such as a proxy that intercepts TLS
    /// with a certificate from a trusted CA) never receives the client certificate.
    ///
    /// libcurl 7.88 checks `CURLOPT_PINNEDPUBLICKEY` after the handshake, when the client has
    /// already sent its certificate; that check stays as the second one. With OpenSSL as its
    /// backend, libcurl calls `CURLOPT_SSL_CTX_FUNCTION` once for each new connection, on the
    /// `SSL_CTX` it made for it, after setting its own verify mode (`SSL_VERIFY_PEER`, since
    /// NetKit always sets `CURLOPT_SSL_VERIFYPEER`) and before `SSL_new`
    /// (`lib/vtls/openssl.c`, `ossl_connect_step1`, curl-7_88_1). The context gets its own copy
    /// of the pins, freed with it, because a context lives as long as its connection, which
    /// libcurl may keep for later requests, but only for requests with the same pinned-key
    /// option (part of its connection and TLS-session matching).
    enum CurlHandshakePins {
        /// Whether libcurl's TLS backend is the OpenSSL this process links (same major
        /// version), so the context libcurl hands over is an `SSL_CTX` this module may change.
        static let isAvailable: Bool = {
            guard let info = curl_version_info(CURLVERSION_TENTH), let backend = info.pointee.ssl_version else { return false }
            let name = String(cString: backend)  // "OpenSSL/3.0.19"; a multi-backend build brackets the inactive ones
            guard name.hasPrefix("OpenSSL/") else { return false }
            let major = name.dropFirst("OpenSSL/".count).prefix(while: \.isNumber)
            return UInt32(major) == netkit_openssl_major() && index >= 0
        }()

        /// The `SSL_CTX` ex_data slot that owns each context's copy of the pins (freed with it).
        private static let index: Int32 = netkit_pins_index_new()

        /// Where the handshake's callback finds the pins it checks.
        enum Source {
            /// The transfer behind the handle's slot (`CURLOPT_PRIVATE`): its request's policy.
            case transfer
            /// A holder the caller keeps alive until the handle has connected (a WebSocket's
            /// handle, which has no transfer behind it).
            case holder(CurlPinsHolder)
        }

        /// Makes each new connection of `easy` check the pins `source` gives during its handshake.
        ///
        /// Where libcurl's backend is not OpenSSL, pins are checked after the handshake only; a
        /// request that would then show a client certificate first fails instead.
        static func install(on easy: UnsafeMutableRawPointer, from source: Source, host: String, presentsIdentity: Bool) throws(NetworkError) {
            var installed = false
            if isAvailable {
                switch source {
                case .transfer:
                    var slot: UnsafeMutableRawPointer?
                    _ = netkit_easy_getinfo_ptr(easy, CURLINFO_PRIVATE, &slot)
                    installed =
                        slot != nil && netkit_easy_setopt_ptr(easy, CURLOPT_SSL_CTX_DATA, slot) == CURLE_OK
                        && netkit_easy_setopt_ssl_ctx_callback(easy) { _, context, slot in
                            CurlHandshakePins.attach(CurlHandleSlot.transfer(slot).request.tls?.pinnedKeyHashes ?? [], to: context)
                        } == CURLE_OK
                case .holder(let holder):
                    installed =
                        netkit_easy_setopt_ptr(easy, CURLOPT_SSL_CTX_DATA, Unmanaged.passUnretained(holder).toOpaque()) == CURLE_OK
                        && netkit_easy_setopt_ssl_ctx_callback(easy) { _, context, data in
                            CurlHandshakePins.attach(Unmanaged<CurlPinsHolder>.fromOpaque(data!).takeUnretainedValue().hashes, to: context)
                        } == CURLE_OK
                }
            }
            if !installed && presentsIdentity {
                throw .tlsFailure(
                    host: host,
                    reason: "this libcurl build cannot check pins during the TLS handshake (its TLS backend is not the OpenSSL NetKit links), "
                        + "so the client certificate would reach the server before the pin check; the request was not sent")
            }
        }

        /// Gives `context` (an `SSL_CTX`) its own copy of the pins; a failure fails the connection.
        static func attach(_ hashes: [String], to context: UnsafeMutableRawPointer?) -> CURLcode {
            var digests: [UInt8] = []
            for hash in hashes {
                let value = hash.trimmingCharacters(in: .whitespacesAndNewlines)
                guard let digest = Data(base64Encoded: value.hasPrefix("sha256//") ? String(value.dropFirst(8)) : value), digest.count == 32 else {
                    return CURLE_SSL_CONNECT_ERROR
                }
                digests.append(contentsOf: digest)
            }
            guard !digests.isEmpty else { return CURLE_SSL_CONNECT_ERROR }
            let attached = digests.withUnsafeBufferPointer { netkit_pins_attach(context, index, $0.baseAddress, $0.count / 32) }
            return attached == 1 ? CURLE_OK : CURLE_SSL_CONNECT_ERROR
        }

        /// Whether a transfer that failed with `code` was stopped by the handshake's pin check
        /// (`CURLE_PEER_FAILED_VERIFICATION` with the verify result the check sets).
        static func rejected(_ code: CURLcode, easy: UnsafeMutableRawPointer) -> Bool {
            guard code == CURLE_PEER_FAILED_VERIFICATION else { return false }
            var result = 0
            _ = netkit_easy_getinfo_long(easy, CURLINFO_SSL_VERIFYRESULT, &result)
            return result == Int(X509_V_ERR_APPLICATION_VERIFICATION)
        }
    }

    /// Pins for a handle with no transfer behind it (see ``CurlHandshakePins/Source/holder(_:)``);
    /// immutable, read by libcurl's context callback on the handle's own thread.
    final class CurlPinsHolder {
        let hashes: [String]

        init(_ hashes: [String]) {
            self.hashes = hashes
        }
    }
#endif
