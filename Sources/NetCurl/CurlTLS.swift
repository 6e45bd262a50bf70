#if canImport(CCurl)
    import NetToolbox
    import NetBase
    import CCurl
    import Foundation

    /// Turns a ``TLSPolicy`` into easy-handle options.
    ///
    /// The options are part of libcurl's connection and TLS-session matching (pinned key, CA blob,
    /// verification flags), so a connection verified under one policy is never reused for a request
    /// with another: no policy leaks to other hosts or other requests.
    enum CurlTLS {
        /// Sets `policy` on `easy`; `pinSource` says where the handshake's pin check finds the pins.
        static func apply(
            _ policy: TLSPolicy?, to easy: UnsafeMutableRawPointer, host: String, pinSource: CurlHandshakePins.Source = .transfer
        ) throws(NetworkError) {
            _ = netkit_easy_setopt_long(easy, CURLOPT_SSL_VERIFYPEER, 1)
            // TLS 1.2 at least, whatever the system's OpenSSL configuration allows.
            _ = netkit_easy_setopt_long(easy, CURLOPT_SSLVERSION, Int(CURL_SSLVERSION_TLSv1_2))
            guard let policy else {
                _ = netkit_easy_setopt_long(easy, CURLOPT_SSL_VERIFYHOST, 2)
                return
            }
            _ = netkit_easy_setopt_long(easy, CURLOPT_SSL_VERIFYHOST, policy.validatesHost ? 2 : 0)
            if !policy.pinnedKeyHashes.isEmpty {
                let pins = try pinnedKeyOption(policy.pinnedKeyHashes, host: host)
                guard netkit_easy_setopt_string(easy, CURLOPT_PINNEDPUBLICKEY, pins) == CURLE_OK else {
                    throw .tlsFailure(host: host, reason: "this libcurl build cannot pin public keys; the request was not sent")
                }
                // The same pins, checked during the handshake: before the client certificate is sent.
                try CurlHandshakePins.install(on: easy, from: pinSource, host: host, presentsIdentity: policy.clientIdentity != nil)
            }
            if !policy.trustedCertificates.isEmpty {
                let bundle = try pemBundle(policy.trustedCertificates, host: host)
                let code = bundle.withUnsafeBytes { bytes in
                    netkit_easy_setopt_blob(easy, CURLOPT_CAINFO_BLOB, bytes.baseAddress, bytes.count)
                }
                guard code == CURLE_OK else {
                    throw .tlsFailure(host: host, reason: "this libcurl build cannot trust in-memory certificates; the request was not sent")
                }
                // The given certificates are the only anchors for this request (see CurlTransport).
                _ = netkit_easy_setopt_ptr(easy, CURLOPT_CAPATH, nil)
            }
            if let identity = policy.clientIdentity {
                try present(identity, to: easy, host: host)
            }
        }

        /// Sets the client certificate and key as in-memory blobs (libcurl copies them), so the
        /// key never touches the disk.
        ///
        /// libcurl reuses a connection (and resumes a TLS session) for a request whose certificate
        /// blob is equal, without comparing the key, the passphrase or the PKCS#12 password: a
        /// caller holding someone's public certificate with any key would ride their
        /// authenticated connection. So the blob carries, after the certificate data, a line with
        /// the SHA-256 of all the identity's material (OpenSSL ignores text after the last PEM
        /// block and bytes after the PKCS#12 structure): equal blobs mean equal identities.
        private static func present(_ identity: ClientIdentity, to easy: UnsafeMutableRawPointer, host: String) throws(NetworkError) {
            let unsupported = NetworkError.tlsFailure(
                host: host, reason: "this libcurl build cannot use in-memory client certificates (CURLOPT_SSLCERT_BLOB); the request was not sent")
            func blob(_ option: CURLoption, _ data: Data) -> Bool {
                data.withUnsafeBytes { bytes in netkit_easy_setopt_blob(easy, option, bytes.baseAddress, bytes.count) } == CURLE_OK
            }
            switch identity {
            case .pem(let certificate, let key, let passphrase):
                let keyed = connectionKeyed(certificate, material: [certificate, key, Data((passphrase ?? "").utf8)])
                guard blob(CURLOPT_SSLCERT_BLOB, keyed), blob(CURLOPT_SSLKEY_BLOB, key) else { throw unsupported }
                _ = netkit_easy_setopt_string(easy, CURLOPT_SSLCERTTYPE, "PEM")
                _ = netkit_easy_setopt_string(easy, CURLOPT_SSLKEYTYPE, "PEM")
                if let passphrase { _ = netkit_easy_setopt_string(easy, CURLOPT_KEYPASSWD, passphrase) }
            case .pkcs12(let bundle, let password):
                guard blob(CURLOPT_SSLCERT_BLOB, connectionKeyed(bundle, material: [bundle, Data(password.utf8)])) else { throw unsupported }
                _ = netkit_easy_setopt_string(easy, CURLOPT_SSLCERTTYPE, "P12")
                _ = netkit_easy_setopt_string(easy, CURLOPT_KEYPASSWD, password)
            }
        }

        /// `certificate` followed by a line naming the digest of `material` (each part
        /// length-prefixed, so no two different identities share it).
        static func connectionKeyed(_ certificate: Data, material: [Data]) -> Data {
            var hashed = Data()
            for part in material {
                withUnsafeBytes(of: UInt64(part.count).bigEndian) { hashed.append(contentsOf: $0) }
                hashed.append(part)
            }
            var keyed = certificate
            keyed.append(contentsOf: Data("\nNetKit client identity \(SHA256.hex(hashed))\n".utf8))
            return keyed
        }

        /// The TLS error for a handshake the server ended over the client certificate (missing,
        /// refused) or a client identity libcurl could not load, or `nil` for other failures.
        ///
        /// Verified with OpenSSL 3 and libcurl 7.88: under TLS 1.3 a server that demands a
        /// certificate sends its alert after the client's handshake, so it arrives as a receive
        /// error (56, "tlsv13 alert certificate required" / "tlsv1 alert unknown ca"); under TLS 1.2
        /// it is a handshake error (35, "alert handshake failure" / "alert unknown ca"); an
        /// unusable certificate, key or password is 58; some builds report 98 (CURLE_SSL_CLIENTCERT).
        /// `code` is the `CURLcode`'s number.
        static func clientCertificateFailure(code: Int, detail: String, host: String, identity: ClientIdentity?) -> NetworkError? {
            let text = detail.lowercased()
            let required =
                identity == nil
                ? "the server requires a client certificate and none was configured; add a ClientIdentity to the TLS policy (for example PinningPlugin.Pin(clientIdentity:))"
                : "the server requires a client certificate and did not accept the one presented"
            let refused =
                "the server refused the client certificate (it does not trust the certificate's issuer, or the certificate is expired, revoked or not meant for client authentication)"
            let unusable =
                "the client certificate or its key could not be used (not PEM / PKCS#12, a wrong password or passphrase, or a key that does not belong to the certificate)"
            switch CURLcode(rawValue: UInt32(truncatingIfNeeded: code)) {
            case CURLE_SSL_CERTPROBLEM:
                return .tlsFailure(host: host, reason: "\(unusable): \(detail)")
            case CURLE_SSL_CLIENTCERT:
                return .tlsFailure(host: host, reason: "\(required): \(detail)")
            case CURLE_SSL_CONNECT_ERROR, CURLE_SEND_ERROR, CURLE_RECV_ERROR:
                guard text.contains("alert"), text.contains("ssl") || text.contains("tls") else { return nil }
                if text.contains("certificate required") {
                    return .tlsFailure(host: host, reason: "\(required): \(detail)")
                }
                let certificateAlerts = [
                    "bad certificate", "unknown ca", "certificate unknown", "unsupported certificate", "certificate revoked",
                    "certificate expired", "access denied",
                ]
                if identity != nil, certificateAlerts.contains(where: text.contains) {
                    return .tlsFailure(host: host, reason: "\(refused): \(detail)")
                }
                if identity == nil, text.contains("handshake failure") {
                    return .tlsFailure(
                        host: host,
                        reason: "the server ended the handshake; if it requires a client certificate, add a ClientIdentity to the TLS policy: \(detail)")
                }
                // Any other TLS alert is still a TLS failure, not a lost connection.
                return .tlsFailure(host: host, reason: detail)
            default:
                return nil
            }
        }

        /// `sha256//<a>;sha256//<b>` from base64 digests (a `sha256//` prefix is accepted).
        static func pinnedKeyOption(_ hashes: [String], host: String) throws(NetworkError) -> String {
            var parts: [String] = []
            for hash in hashes {
                var value = hash.trimmingCharacters(in: .whitespacesAndNewlines)
                if value.hasPrefix("sha256//") { value.removeFirst("sha256//".count) }
                guard let digest = Data(base64Encoded: value), digest.count == 32 else {
                    throw .tlsFailure(host: host, reason: "the pin \"\(hash)\" is not a base64 SHA-256 digest; the request was not sent")
                }
                parts.append("sha256//" + value)
            }
            return parts.joined(separator: ";")
        }

        /// The certificates as one PEM bundle; DER certificates are converted.
        static func pemBundle(_ certificates: [Data], host: String) throws(NetworkError) -> Data {
            var bundle = Data()
            for certificate in certificates {
                if certificate.starts(with: Data("-----BEGIN".utf8)) {
                    bundle.append(certificate)
                    if certificate.last != 0x0A { bundle.append(0x0A) }
                } else if certificate.first == 0x30 {  // DER: an ASN.1 SEQUENCE
                    bundle.append(Data(pem(fromDER: certificate).utf8))
                } else {
                    throw .tlsFailure(host: host, reason: "a trusted certificate is neither PEM nor DER; the request was not sent")
                }
            }
            return bundle
        }

        static func pem(fromDER der: Data) -> String {
            let base64 = der.base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
            return "-----BEGIN CERTIFICATE-----\n\(base64)\n-----END CERTIFICATE-----\n"
        }
    }
#endif
