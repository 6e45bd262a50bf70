#if canImport(CCurl)
    import CCurl
    import Foundation

    /// Turns a ``TLSPolicy`` into easy-handle options.
    ///
    /// The options are part of libcurl's connection and TLS-session matching (pinned key, CA blob,
    /// verification flags), so a connection verified under one policy is never reused for a request
    /// with another: no policy leaks to other hosts or other requests.
    enum CurlTLS {
        static func apply(_ policy: TLSPolicy?, to easy: UnsafeMutableRawPointer, host: String) throws(NetworkError) {
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
