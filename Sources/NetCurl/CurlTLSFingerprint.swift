#if canImport(CCurl)
    import NetToolbox
    import NetBase
    import Foundation

    /// A ``TLSPolicy`` as the handle pool compares it: the SHA-256 of everything in the policy
    /// (pins, trusted certificates, host-name check, client identity with its key and password),
    /// each part length-prefixed, so two policies have equal fingerprints only when they are equal.
    ///
    /// An idle handle remembers what its options were set for (``CurlHandleProfile``) so that the
    /// next request with the same policy skips the reset; the fingerprint is all it needs for that.
    /// Keeping the policy itself kept a finished request's certificate and key `Data` alive in idle
    /// handles for as long as the transport lives (for the shared default transport, the process),
    /// and LeakSanitizer, which cannot see a `Data`'s storage through the value, reported it as a
    /// leak. Worked out in the caller's task (``CurlRequestHead``), not on the loop thread.
    struct CurlTLSFingerprint: Equatable, Sendable {
        let digest: [UInt8]

        init(_ policy: TLSPolicy) {
            var hasher = SHA256.Hasher()
            func part(_ bytes: some Collection<UInt8>) {
                withUnsafeBytes(of: UInt64(bytes.count).bigEndian) { hasher.update($0) }
                hasher.update(bytes)
            }
            func count(_ value: Int) {
                withUnsafeBytes(of: UInt64(value).bigEndian) { hasher.update($0) }
            }
            count(policy.pinnedKeyHashes.count)
            for hash in policy.pinnedKeyHashes { part(hash.utf8) }
            count(policy.trustedCertificates.count)
            for certificate in policy.trustedCertificates { part(certificate) }
            count(policy.validatesHost ? 1 : 0)
            switch policy.clientIdentity {
            case nil:
                count(0)
            case .pem(let certificate, let key, let passphrase):
                count(1)
                part(certificate)
                part(key)
                count(passphrase == nil ? 0 : 1)
                part((passphrase ?? "").utf8)
            case .pkcs12(let bundle, let password):
                count(2)
                part(bundle)
                part(password.utf8)
            }
            digest = hasher.finalize()
        }
    }
#endif
