import Foundation
@testable import NetBase
@testable import NetCurl
import Testing

/// A pooled handle remembers the TLS policy it was set up for as a fingerprint: equal policies
/// match, and any difference (a key, a password, where one certificate ends) sets the handle up again.
@Suite("TLS policy fingerprints of pooled handles")
struct CurlTLSFingerprintTests {
    let certificate = Data("-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n".utf8)
    let pin = "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="

    func fingerprint(_ policy: TLSPolicy) -> CurlTLSFingerprint { CurlTLSFingerprint(policy) }

    @Test("Equal policies have equal fingerprints, built from separate copies of their bytes")
    func equalPolicies() {
        let one = TLSPolicy(pinnedKeyHashes: [pin], trustedCertificates: [certificate])
        let other = TLSPolicy(pinnedKeyHashes: [String(pin)], trustedCertificates: [Data(Array(certificate))])
        #expect(fingerprint(one) == fingerprint(other))
        #expect(fingerprint(one).digest.count == 32)
    }

    @Test("A different client key, passphrase or password gives another fingerprint")
    func identitySecretsCount() {
        func policy(_ identity: ClientIdentity) -> CurlTLSFingerprint {
            fingerprint(TLSPolicy(trustedCertificates: [certificate], clientIdentity: identity))
        }
        let base = policy(.pem(certificate: certificate, key: Data("key-1".utf8)))
        #expect(base != policy(.pem(certificate: certificate, key: Data("key-2".utf8))))
        #expect(base != policy(.pem(certificate: certificate, key: Data("key-1".utf8), passphrase: "")))
        #expect(policy(.pkcs12(certificate, password: "a")) != policy(.pkcs12(certificate, password: "b")))
        #expect(base != fingerprint(TLSPolicy(trustedCertificates: [certificate])))
    }

    @Test("Where one certificate or pin ends is part of the fingerprint, and so is the host-name check")
    func boundariesCount() {
        let halves = [Data(certificate.prefix(10)), Data(certificate.dropFirst(10))]
        #expect(fingerprint(TLSPolicy(trustedCertificates: [certificate])) != fingerprint(TLSPolicy(trustedCertificates: halves)))
        #expect(fingerprint(TLSPolicy(pinnedKeyHashes: ["ab", "c"])) != fingerprint(TLSPolicy(pinnedKeyHashes: ["a", "bc"])))
        #expect(fingerprint(TLSPolicy(pinnedKeyHashes: [pin])) != fingerprint(TLSPolicy(pinnedKeyHashes: [pin], validatesHost: false)))
        #expect(fingerprint(TLSPolicy(pinnedKeyHashes: [pin])) != fingerprint(TLSPolicy(trustedCertificates: [Data(pin.utf8)])))
    }
}
