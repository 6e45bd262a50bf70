import Foundation
import NetCore

/// Pins HTTPS hosts to public keys and/or extra trusted certificates by attaching a
/// ``/NetCore/TLSPolicy`` to their requests; the transport enforces it.
///
/// ```swift
/// let pinning = PinningPlugin([
///     try .init(host: "api.example.com", keyHashes: ["sha256/AbC…="]),
///     try .init(host: "*.cdn.example.com", keyHashes: [primary, backup]),
///     try .init(host: "127.0.0.1", certificates: [pemData], keyHashes: [PinningPlugin.pin(ofCertificateAt: certURL)]),
/// ])
/// let provider = Provider<API>(transport: CurlTransport(), plugins: [pinning])
/// ```
///
/// A pin can also carry a client certificate for mutual TLS
/// (`try .init(host: "mtls.example.com", certificates: [caPEM], clientIdentity: .pkcs12(p12, password: pw))`);
/// it is presented only to hosts that pin matches, on the first request and on every redirect hop.
///
/// Only `https` requests to a configured host get a policy; every other request is left alone.
/// An exact host wins over a wildcard; among wildcards the longest suffix wins. `*.example.com`
/// matches one extra label (`a.example.com`, not `example.com` or `a.b.example.com`);
/// `**.example.com` matches any number, including none. Host names are compared without case.
///
/// Pins fail closed: a transport that cannot enforce a policy (``/NetCore/URLSessionTransport`` on Linux)
/// fails the request with ``/NetCore/NetworkError/tlsPolicyUnsupported(transport:host:)`` and never sends
/// it; a key that matches no pin fails with ``/NetCore/NetworkError/pinningFailed(host:)``. Include a backup
/// pin (a second key) so that a key rotation does not lock your users out.
public struct PinningPlugin: Plugin {
    /// The TLS requirements for one host pattern.
    public struct Pin: Sendable, Hashable {
        /// `api.example.com`, `*.example.com` or `**.example.com`, lowercased.
        public let host: String
        /// Base64 SHA-256 digests of acceptable SubjectPublicKeyInfo, without any prefix.
        public let keyHashes: [String]
        /// Extra trusted certificates (PEM or DER), for self-signed or private-CA servers.
        public let certificates: [Data]
        /// Whether the certificate name must match the host.
        public let validatesHost: Bool
        /// The client certificate presented to this host pattern's servers (mutual TLS), or `nil`.
        /// Only requests (and redirect hops) whose URL this pin matches carry it.
        public let clientIdentity: ClientIdentity?

        /// Creates a pin.
        /// - Parameters:
        ///   - host: An exact host or a wildcard pattern (see ``PinningPlugin``).
        ///   - keyHashes: SPKI SHA-256 digests in base64, bare or prefixed with `sha256/` or
        ///     `sha256//`. Use ``PinningPlugin/pin(ofCertificateAt:)`` to compute one.
        ///   - certificates: Extra certificates to trust, PEM or DER.
        ///   - validatesHost: Check the certificate's name. Default `true`.
        ///   - clientIdentity: A client certificate to present to this host (mutual TLS). Default
        ///     `nil`. A pin may hold only an identity, for a host with a public certificate.
        /// - Throws: ``/NetCore/NetworkError/pluginFailed(plugin:reason:)`` for an empty host, a pin that is
        ///   not a base64 SHA-256 digest, a certificate that is not PEM or DER, or no pins, no
        ///   certificates and no client identity at all.
        public init(
            host: String, keyHashes: [String] = [], certificates: [Data] = [], validatesHost: Bool = true,
            clientIdentity: ClientIdentity? = nil
        ) throws(NetworkError) {
            let host = host.lowercased().trimmingCharacters(in: .whitespaces)
            let bare = host.hasPrefix("**.") ? host.dropFirst(3) : host.hasPrefix("*.") ? host.dropFirst(2) : host[...]
            guard !bare.isEmpty, !bare.contains("*") else {
                throw .pluginFailed(plugin: "PinningPlugin", reason: "\"\(host)\" is not a host or a *. / **. wildcard pattern")
            }
            guard !keyHashes.isEmpty || !certificates.isEmpty || clientIdentity != nil else {
                throw .pluginFailed(plugin: "PinningPlugin", reason: "the pin for \(host) has no key hashes, certificates or client identity")
            }
            var hashes: [String] = []
            for hash in keyHashes {
                var value = hash.trimmingCharacters(in: .whitespaces)
                for prefix in ["sha256//", "sha256/"] where value.hasPrefix(prefix) { value.removeFirst(prefix.count) }
                guard Data(base64Encoded: value)?.count == 32 else {
                    throw .pluginFailed(
                        plugin: "PinningPlugin", reason: "\"\(hash)\" for \(host) is not a base64 SHA-256 digest (44 characters ending in \"=\")")
                }
                hashes.append(value)
            }
            for (index, certificate) in certificates.enumerated() where Certificate.der(from: certificate) == nil {
                throw .pluginFailed(plugin: "PinningPlugin", reason: "certificate \(index + 1) for \(host) is neither PEM nor DER")
            }
            self.host = host
            self.keyHashes = hashes
            self.certificates = certificates
            self.validatesHost = validatesHost
            self.clientIdentity = clientIdentity
        }

        /// How specific the pattern is for `host` (higher wins), or `nil` when it does not match.
        func specificity(for host: String) -> Int? {
            if self.host == host { return Int.max }
            if self.host.hasPrefix("**.") {
                let suffix = self.host.dropFirst(3)
                return host == suffix || host.hasSuffix("." + suffix) ? suffix.count : nil
            }
            if self.host.hasPrefix("*.") {
                let suffix = self.host.dropFirst(2)
                guard host.hasSuffix("." + suffix) else { return nil }
                let label = host.dropLast(suffix.count + 1)
                return !label.isEmpty && !label.contains(".") ? suffix.count + 1 : nil
            }
            return nil
        }
    }

    /// The configured pins.
    public let pins: [Pin]

    /// Creates the plugin.
    /// - Parameter pins: One entry per host pattern.
    public init(_ pins: [Pin]) {
        self.pins = pins
    }

    /// The pin that applies to `url`: `https` only, exact host first, then the longest wildcard.
    public func pin(for url: URL) -> Pin? {
        guard url.scheme?.lowercased() == "https", let host = url.host?.lowercased() else { return nil }
        var best: (pin: Pin, score: Int)?
        for pin in pins {
            if let score = pin.specificity(for: host), score > best?.score ?? -1 { best = (pin, score) }
        }
        return best?.pin
    }

    public func prepare(_ request: inout Request) async throws -> PrepareAction {
        // Every redirect hop gets the policy for its own URL (the transport asks the resolver),
        // on top of what an earlier plugin chose for that URL.
        let previous = request.redirectTLS
        request.redirectTLS = TLSPolicyResolver { [self] url in
            applying(to: previous?.policy(for: url), for: url)
        }
        request.tls = applying(to: request.tls, for: request.url)
        return .proceed
    }

    /// `policy` with this plugin's pin for `url` added, or `policy` unchanged when no pin matches.
    private func applying(to policy: TLSPolicy?, for url: URL) -> TLSPolicy? {
        guard let pin = pin(for: url) else { return policy }
        var policy = policy ?? TLSPolicy()
        policy.pinnedKeyHashes.append(contentsOf: pin.keyHashes.filter { !policy.pinnedKeyHashes.contains($0) })
        policy.trustedCertificates.append(contentsOf: pin.certificates)
        policy.validatesHost = policy.validatesHost && pin.validatesHost
        // An identity an earlier plugin chose for this URL wins; the pin's fills the gap.
        policy.clientIdentity = policy.clientIdentity ?? pin.clientIdentity
        return policy
    }

    /// The pin (base64 SHA-256 of the SubjectPublicKeyInfo) of the first certificate in a PEM or
    /// DER file: the same value as
    /// `openssl x509 -pubkey -noout | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64`.
    /// - Throws: ``/NetCore/NetworkError/fileSystem(reason:)`` when the file cannot be read,
    ///   ``/NetCore/NetworkError/pluginFailed(plugin:reason:)`` when it holds no readable certificate.
    public static func pin(ofCertificateAt url: URL) throws(NetworkError) -> String {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw .fileSystem(reason: "cannot read the certificate \(url.path): \(error.localizedDescription)")
        }
        return try pin(ofCertificate: data)
    }

    /// The pin of a certificate given as PEM or DER bytes. See ``pin(ofCertificateAt:)``.
    public static func pin(ofCertificate data: Data) throws(NetworkError) -> String {
        guard let der = Certificate.der(from: data) else {
            throw .pluginFailed(plugin: "PinningPlugin", reason: "the data is neither a PEM nor a DER certificate")
        }
        guard let spki = Certificate.subjectPublicKeyInfo(der: der) else {
            throw .pluginFailed(plugin: "PinningPlugin", reason: "the certificate's public key could not be found (malformed DER)")
        }
        return Data(SHA256.hash(Array(spki))).base64EncodedString()
    }
}
