import Foundation

/// TLS requirements for one request: public-key pins, extra trusted certificates and the client
/// certificate to present.
///
/// Attached by ``Plugin``s (the pinning plugin) and enforced by the transport. A transport that
/// cannot enforce a policy fails the request with ``NetworkError/tlsPolicyUnsupported(transport:host:)``.
public struct TLSPolicy: Sendable, Hashable {
    /// Base64 SHA-256 digests of acceptable SubjectPublicKeyInfo (the value after `sha256//`).
    /// Empty means no pinning.
    public var pinnedKeyHashes: [String]
    /// Extra certificates to trust (PEM or DER), for self-signed or private-CA servers.
    public var trustedCertificates: [Data]
    /// Whether the certificate's name must match the host. On by default.
    public var validatesHost: Bool
    /// The certificate and private key presented when the server asks for one (mutual TLS), or
    /// `nil` to present none. Sent only to the host this policy was chosen for: each redirect hop
    /// gets its own policy (see `redirectTLS`).
    public var clientIdentity: ClientIdentity?

    /// Creates a policy.
    public init(
        pinnedKeyHashes: [String] = [], trustedCertificates: [Data] = [], validatesHost: Bool = true,
        clientIdentity: ClientIdentity? = nil
    ) {
        self.pinnedKeyHashes = pinnedKeyHashes
        self.trustedCertificates = trustedCertificates
        self.validatesHost = validatesHost
        self.clientIdentity = clientIdentity
    }
}

/// A client certificate with its private key, for servers that require mutual TLS.
///
/// The bytes stay in memory: `CurlTransport` hands them to libcurl as blobs, so the key never
/// has to sit in a file. Descriptions, debug descriptions and `dump` show only sizes, never the
/// key or the password.
///
/// ```swift
/// let identity = ClientIdentity.pem(certificate: certificatePEM, key: keyPEM)
/// let bundled = ClientIdentity.pkcs12(p12Data, password: "secret")
/// let policy = TLSPolicy(trustedCertificates: [caPEM], clientIdentity: identity)
/// ```
public enum ClientIdentity: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// A PEM certificate (optionally followed by its intermediates) and its PEM private key;
    /// `passphrase` decrypts an encrypted key.
    case pem(certificate: Data, key: Data, passphrase: String? = nil)
    /// A PKCS#12 (`.p12` / `.pfx`) bundle of certificate and key, and its password.
    case pkcs12(Data, password: String)

    /// `ClientIdentity.pem(certificate: 1188 bytes, key: <redacted>)`: sizes only, secrets hidden.
    public var description: String {
        switch self {
        case .pem(let certificate, _, let passphrase):
            "ClientIdentity.pem(certificate: \(certificate.count) bytes, key: <redacted>\(passphrase == nil ? "" : ", passphrase: <redacted>"))"
        case .pkcs12(let bundle, _):
            "ClientIdentity.pkcs12(\(bundle.count) bytes, password: <redacted>)"
        }
    }

    /// The same as ``description``: no key or password.
    public var debugDescription: String { description }

    /// A mirror without the key or password, so that `dump` and reflection cannot print them.
    public var customMirror: Mirror {
        Mirror(self, children: ["redacted": description], displayStyle: .enum)
    }
}
