import NetToolbox
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
/// `**.example.com` matches any number, including none. Host names are compared without case and
/// without a trailing dot. A pin with a `port` applies to that port only and wins over a pin
/// without one for the same pattern.
///
/// Pins fail closed: a transport that cannot enforce a policy (``/NetCore/URLSessionTransport`` on Linux)
/// fails the request with ``/NetCore/NetworkError/tlsPolicyUnsupported(transport:host:)`` and never sends
/// it; a key that matches no pin fails with ``/NetCore/NetworkError/pinningFailed(host:)``. Include a backup
/// pin (a second key) so that a key rotation does not lock your users out.
public struct PinningPlugin: Plugin {
    /// The TLS requirements for one host pattern (and optionally one port).
    public struct Pin: Sendable, Hashable {
        /// `api.example.com`, `*.example.com` or `**.example.com`, lowercased, without a trailing dot.
        package let host: String
        /// The only port this pin applies to, or `nil` for every port of its hosts. A client
        /// identity pinned to port 8443 is never shown to another service on the same host.
        package let port: Int?
        /// Base64 SHA-256 digests of acceptable SubjectPublicKeyInfo, without any prefix.
        package let keyHashes: [String]
        /// Extra trusted certificates (PEM or DER), for self-signed or private-CA servers.
        package let certificates: [Data]
        /// Whether the certificate name must match the host.
        package let validatesHost: Bool
        /// The client certificate presented to this host pattern's servers (mutual TLS), or `nil`.
        /// Only requests (and redirect hops) whose URL this pin matches carry it.
        package let clientIdentity: ClientIdentity?

        /// Creates a pin.
        /// - Parameters:
        ///   - host: An exact host or a wildcard pattern (see ``PinningPlugin``). Case and a
        ///     trailing dot are ignored.
        ///   - port: The one port this pin applies to, or `nil` (the default) for every port.
        ///   - keyHashes: SPKI SHA-256 digests in base64, bare or prefixed with `sha256/` or
        ///     `sha256//`. Use ``PinningPlugin/pin(ofCertificateAt:)`` to compute one.
        ///   - certificates: Extra certificates to trust, PEM or DER.
        ///   - validatesHost: Check the certificate's name. Default `true`.
        ///   - clientIdentity: A client certificate to present to this host (mutual TLS). Default
        ///     `nil`. A pin may hold only an identity, for a host with a public certificate.
        /// - Throws: A ``PinningPlugin/ConfigurationError`` naming the mistake: a bad host pattern
        ///   or port, a pin that is not a base64 SHA-256 digest, a certificate that is not PEM or
        ///   DER, or no pins, certificates or client identity at all.
        public init(
            host: String, port: Int? = nil, keyHashes: [String] = [], certificates: [Data] = [], validatesHost: Bool = true,
            clientIdentity: ClientIdentity? = nil
        ) throws(ConfigurationError) {
            let host = try Self.normalizedPattern(host)
            if let port, !(1...65535).contains(port) { throw .invalidPort(port) }
            guard !keyHashes.isEmpty || !certificates.isEmpty || clientIdentity != nil else {
                throw .emptyPin(host: host)
            }
            var hashes: [String] = []
            for hash in keyHashes {
                var value = hash.trimmingCharacters(in: .whitespaces)
                for prefix in ["sha256//", "sha256/"] where value.hasPrefix(prefix) { value.removeFirst(prefix.count) }
                guard Data(base64Encoded: value)?.count == 32 else { throw .invalidKeyHash(host: host, value: hash) }
                hashes.append(value)
            }
            for (index, certificate) in certificates.enumerated() where Certificate.der(from: certificate) == nil {
                throw .invalidCertificate(host: host, position: index + 1)
            }
            self.host = host
            self.port = port
            self.keyHashes = hashes
            self.certificates = certificates
            self.validatesHost = validatesHost
            self.clientIdentity = clientIdentity
        }

        /// `host` lowercased, without a trailing dot or IPv6 brackets; refuses anything that is
        /// not a host name, an IP address or a `*.` / `**.` pattern (a `host:port` would never
        /// match a URL, so it would fail open: the port belongs in `port`).
        private static func normalizedPattern(_ raw: String) throws(ConfigurationError) -> String {
            var host = raw.lowercased().trimmingCharacters(in: .whitespaces)
            if host.hasSuffix(".") { host.removeLast() }
            if host.hasPrefix("["), host.hasSuffix("]") {
                host = String(host.dropFirst().dropLast())
                guard PinningPlugin.isIPv6Address(host) else { throw .invalidHostPattern(raw) }
            }
            if host.contains(":") {
                // Only an IPv6 address may hold colons.
                guard PinningPlugin.isIPv6Address(host) else { throw .invalidHostPattern(raw) }
                return host
            }
            let bare = host.hasPrefix("**.") ? host.dropFirst(3) : host.hasPrefix("*.") ? host.dropFirst(2) : host[...]
            let forbidden = CharacterSet(charactersIn: "*/ []@?#%\\")
            guard !bare.isEmpty, bare.unicodeScalars.allSatisfy({ !forbidden.contains($0) }) else {
                throw .invalidHostPattern(raw)
            }
            return host
        }

        /// How specific the pin is for `host` and `port` (higher wins), or `nil` when it does not
        /// match. A pin for the exact port beats one for every port of the same pattern.
        func specificity(for host: String, port: Int) -> Int? {
            if let ownPort = self.port, ownPort != port { return nil }
            guard let score = hostSpecificity(for: host) else { return nil }
            return score * 2 + (self.port == nil ? 0 : 1)
        }

        private func hostSpecificity(for host: String) -> Int? {
            if self.host == host { return Int.max / 2 }
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

    /// A mistake in a ``Pin`` or in a certificate handed to ``pin(ofCertificate:)``, found when
    /// the plugin is configured (never while a request runs).
    public enum ConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
        /// The host is empty, holds a port or characters no host name has, or has a `*`
        /// anywhere but a leading `*.` / `**.`.
        case invalidHostPattern(String)
        /// The port is not between 1 and 65535.
        case invalidPort(Int)
        /// The pin for this host has no key hashes, certificates or client identity.
        case emptyPin(host: String)
        /// A key hash for this host is not a base64 SHA-256 digest.
        case invalidKeyHash(host: String, value: String)
        /// The certificate at this 1-based position in the pin's list is neither PEM nor DER.
        case invalidCertificate(host: String, position: Int)
        /// A certificate file could not be read.
        case unreadableCertificate(path: String, reason: String)
        /// The bytes are neither a PEM nor a DER certificate.
        case notACertificate
        /// The certificate is DER but its public key could not be found.
        case malformedCertificate

        /// What is wrong and what to change.
        public var description: String {
            switch self {
            case .invalidHostPattern(let host):
                "PinningPlugin: \"\(host)\" is not a host name, an IP address or a *. / **. wildcard pattern; write a host such as api.example.com or *.example.com, and a port as Pin(host:port:)"
            case .invalidPort(let port):
                "PinningPlugin: the port \(port) is not between 1 and 65535; pass the server's port, or nil for every port"
            case .emptyPin(let host):
                "PinningPlugin: the pin for \(host) has no key hashes, certificates or client identity; give at least one"
            case .invalidKeyHash(let host, let value):
                "PinningPlugin: \"\(value)\" for \(host) is not a base64 SHA-256 digest (44 characters ending in \"=\"); compute it with PinningPlugin.pin(ofCertificateAt:)"
            case .invalidCertificate(let host, let position):
                "PinningPlugin: certificate \(position) for \(host) is neither PEM nor DER; pass the certificate file's bytes"
            case .unreadableCertificate(let path, let reason):
                "PinningPlugin: cannot read the certificate \(path): \(reason)"
            case .notACertificate:
                "PinningPlugin: the data is neither a PEM nor a DER certificate"
            case .malformedCertificate:
                "PinningPlugin: the certificate's public key could not be found (malformed DER)"
            }
        }
    }

    /// The configured pins.
    package let pins: [Pin]

    /// Creates the plugin.
    /// - Parameter pins: One entry per host pattern.
    public init(_ pins: [Pin]) {
        self.pins = pins
    }

    /// The pin that applies to `url`: `https` only, exact host first, then the longest wildcard;
    /// for the same pattern, a pin for the URL's port before one for every port.
    package func pin(for url: URL) -> Pin? {
        guard url.scheme?.lowercased() == "https", var host = url.host?.lowercased() else { return nil }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if host.hasSuffix(".") { host.removeLast() }
        let port = url.port ?? 443
        var best: (pin: Pin, score: Int)?
        for pin in pins {
            if let score = pin.specificity(for: host, port: port), score > best?.score ?? -1 { best = (pin, score) }
        }
        return best?.pin
    }

    public func prepare(_ request: inout Request) async throws -> PrepareAction {
        // Every redirect hop gets the policy for its own URL (the transport asks the resolver),
        // on top of what an earlier plugin chose for that URL.
        if let previous = request.redirectTLS {
            request.redirectTLS = TLSPolicyResolver { [self] url in
                applying(to: previous.policy(for: url), for: url)
            }
        } else {
            // Described by the pins alone, so identical requests can still share a transfer.
            request.redirectTLS = TLSPolicyResolver(rules: pins) { [self] url in applying(to: nil, for: url) }
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

    /// Whether `text` is an IPv6 address (no brackets).
    static func isIPv6Address(_ text: String) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 16)
        return inet_pton(AF_INET6, text, &buffer) == 1
    }

    /// The pin (base64 SHA-256 of the SubjectPublicKeyInfo) of the first certificate in a PEM or
    /// DER file: the same value as
    /// `openssl x509 -pubkey -noout | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64`.
    /// - Throws: ``ConfigurationError/unreadableCertificate(path:reason:)`` when the file cannot
    ///   be read, ``ConfigurationError/notACertificate`` or ``ConfigurationError/malformedCertificate``
    ///   when it holds no readable certificate.
    public static func pin(ofCertificateAt url: URL) throws(ConfigurationError) -> String {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw .unreadableCertificate(path: url.path, reason: error.localizedDescription)
        }
        return try pin(ofCertificate: data)
    }

    /// The pin of a certificate given as PEM or DER bytes. See ``pin(ofCertificateAt:)``.
    public static func pin(ofCertificate data: Data) throws(ConfigurationError) -> String {
        guard let der = Certificate.der(from: data) else { throw .notACertificate }
        guard let spki = Certificate.subjectPublicKeyInfo(der: der) else { throw .malformedCertificate }
        return Data(SHA256.hash(Array(spki))).base64EncodedString()
    }
}
