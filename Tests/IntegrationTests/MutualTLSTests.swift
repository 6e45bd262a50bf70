import Foundation
import NetCore
import NetCurl
import NetPlugins
import Testing
import NetTestSupport

/// Client certificates (mutual TLS) against two servers `scripts/servers.sh` starts: nginx with
/// `ssl_verify_client on` (it completes the handshake and answers 400 without a trusted
/// certificate) and `scripts/mtls_handshake_server.py` (Python `ssl`, `CERT_REQUIRED`: a missing
/// or untrusted certificate fails the handshake itself). Both answer the client's subject.
@Suite(.liveServers)
struct MutualTLSTests {
    /// The files of the run's CA and client identities.
    struct Material {
        var ca: Data
        var certificate: Data
        var key: Data
        var p12: Data
        var otherCertificate: Data
        var otherKey: Data

        var pem: ClientIdentity { .pem(certificate: certificate, key: key) }
        var pkcs12: ClientIdentity { .pkcs12(p12, password: "secret") }
        var stranger: ClientIdentity { .pem(certificate: otherCertificate, key: otherKey) }

        static func load() throws -> Material {
            func file(_ name: String) throws -> Data {
                let path = try TestServers.requireValue(name)
                return try Data(contentsOf: URL(fileURLWithPath: path))
            }
            return Material(
                ca: try file("NETKIT_MTLS_CA"), certificate: try file("NETKIT_CLIENT_CERT"), key: try file("NETKIT_CLIENT_KEY"),
                p12: try file("NETKIT_CLIENT_P12"), otherCertificate: try file("NETKIT_OTHER_CLIENT_CERT"),
                otherKey: try file("NETKIT_OTHER_CLIENT_KEY"))
        }
    }

    /// A provider that trusts the run's CA for `host` and presents `identity` there.
    static func provider(
        host: String = "127.0.0.1", identity: ClientIdentity?, material: Material, transport: any Transport = CurlTransport()
    ) throws -> Provider<HostileTarget> {
        let pin = try PinningPlugin.Pin(host: host, certificates: [material.ca], clientIdentity: identity)
        return Provider<HostileTarget>(transport: transport, plugins: [PinningPlugin([pin])])
    }

    /// The `.tlsFailure` reason of `error`, or a recorded issue.
    static func tlsReason(_ error: NetworkError?, sourceLocation: SourceLocation = #_sourceLocation) -> String {
        guard case .tlsFailure(_, let reason, _)? = error else {
            Issue.record("expected .tlsFailure, got \(String(describing: error))", sourceLocation: sourceLocation)
            return ""
        }
        return reason
    }

    // MARK: nginx (ssl_verify_client on)

    @Test("The right identity, PEM or PKCS#12, is accepted by nginx, which reports its subject")
    func nginxAcceptsTheRightIdentity() async throws {
        let server = try TestServers.require("NETKIT_MTLS_URL")
        let material = try Material.load()
        for identity in [material.pem, material.pkcs12] {
            let response = try await Self.provider(identity: identity, material: material)
                .request(HostileTarget(path: "/whoami", base: server))
            #expect(response.statusCode == 200, "\(identity)")
            #expect(String(decoding: response.data, as: UTF8.self) == "CN=client", "\(identity)")
        }
    }

    @Test("Without an identity, or with an untrusted one, nginx answers 400")
    func nginxRejectsMissingOrUntrustedIdentity() async throws {
        let server = try TestServers.require("NETKIT_MTLS_URL")
        let material = try Material.load()
        let missing = try await Self.provider(identity: nil, material: material).request(HostileTarget(path: "/whoami", base: server))
        #expect(missing.statusCode == 400)
        #expect(String(decoding: missing.data, as: UTF8.self).contains("No required SSL certificate was sent"))
        let untrusted = try await Self.provider(identity: material.stranger, material: material)
            .request(HostileTarget(path: "/whoami", base: server))
        #expect(untrusted.statusCode == 400)
        #expect(String(decoding: untrusted.data, as: UTF8.self).contains("SSL certificate error"))
    }

    // MARK: Python ssl (CERT_REQUIRED: the handshake itself fails)

    @Test("The strict server accepts the right identity, PEM or PKCS#12")
    func strictServerAcceptsTheRightIdentity() async throws {
        let server = try TestServers.require("NETKIT_MTLS_STRICT_URL")
        let material = try Material.load()
        for identity in [material.pem, material.pkcs12] {
            let response = try await Self.provider(identity: identity, material: material).request(HostileTarget(path: "/", base: server))
            #expect(response.statusCode == 200)
            #expect(String(decoding: response.data, as: UTF8.self) == "CN=client")
        }
    }

    @Test("No identity for the strict server: a TLS failure saying a client certificate is required")
    func strictServerRequiresACertificate() async throws {
        let server = try TestServers.require("NETKIT_MTLS_STRICT_URL")
        let material = try Material.load()
        let result = await outcome { try await Self.provider(identity: nil, material: material).request(HostileTarget(path: "/", base: server)) }
        let reason = Self.tlsReason(result.failure)
        #expect(reason.contains("requires a client certificate and none was configured"), "\(reason)")
        #expect(result.failure?.isTransient == false)
    }

    @Test("An identity the strict server does not trust: a TLS failure saying it was refused")
    func strictServerRefusesAStranger() async throws {
        let server = try TestServers.require("NETKIT_MTLS_STRICT_URL")
        let material = try Material.load()
        let result = await outcome {
            try await Self.provider(identity: material.stranger, material: material).request(HostileTarget(path: "/", base: server))
        }
        let reason = Self.tlsReason(result.failure)
        #expect(reason.contains("refused the client certificate"), "\(reason)")
    }

    @Test("A wrong PKCS#12 password or a key of another certificate: the identity cannot be used")
    func unusableIdentity() async throws {
        let server = try TestServers.require("NETKIT_MTLS_STRICT_URL")
        let material = try Material.load()
        for identity in [ClientIdentity.pkcs12(material.p12, password: "typo-Zq81"), .pem(certificate: material.certificate, key: material.otherKey)] {
            let result = await outcome {
                try await Self.provider(identity: identity, material: material).request(HostileTarget(path: "/", base: server))
            }
            let reason = Self.tlsReason(result.failure)
            #expect(reason.contains("client certificate or its key could not be used"), "\(reason)")
            #expect(!(result.failure?.description.contains("typo-Zq81") ?? true), "the password leaked: \(reason)")
        }
    }

    @Test(
        "The right certificate with another key, or the right PKCS#12 with a wrong password, never rides an authenticated connection",
        arguments: ["NETKIT_MTLS_URL", "NETKIT_MTLS_STRICT_URL"])
    func sameCertificateOtherKeyIsNotReused(server variable: String) async throws {
        let server = try TestServers.require(variable)
        let material = try Material.load()
        // One transport: libcurl would reuse the first request's connection for an equal
        // certificate blob, whatever the key.
        let transport = CurlTransport()
        let impostors: [(good: ClientIdentity, bad: ClientIdentity)] = [
            (material.pem, .pem(certificate: material.certificate, key: material.otherKey)),
            (material.pkcs12, .pkcs12(material.p12, password: "wrong-Xy7")),
        ]
        for (good, bad) in impostors {
            let first = try await Self.provider(identity: good, material: material, transport: transport)
                .request(HostileTarget(path: "/whoami", base: server))
            #expect(String(decoding: first.data, as: UTF8.self) == "CN=client")
            let second = await outcome {
                try await Self.provider(identity: bad, material: material, transport: transport)
                    .request(HostileTarget(path: "/whoami", base: server))
            }
            if case .success(let response) = second {
                #expect(String(decoding: response.data, as: UTF8.self) != "CN=client", "\(bad) rode the authenticated connection")
            }
            // The good identity still works afterwards (and may reuse its own connection).
            let third = try await Self.provider(identity: good, material: material, transport: transport)
                .request(HostileTarget(path: "/whoami", base: server))
            #expect(String(decoding: third.data, as: UTF8.self) == "CN=client")
        }
    }

    // MARK: No leaks

    @Test("An identity for one host is not presented to another, directly or after a redirect")
    func identityStaysWithItsHost() async throws {
        let strict = try TestServers.require("NETKIT_MTLS_STRICT_URL")
        let mtls = try TestServers.require("NETKIT_MTLS_URL")
        let material = try Material.load()
        // "localhost" has the identity; "127.0.0.1" (the same servers) is trusted but has none.
        let plugin = PinningPlugin([
            try .init(host: "localhost", certificates: [material.ca], clientIdentity: material.pem),
            try .init(host: "127.0.0.1", certificates: [material.ca]),
        ])
        let provider = Provider<HostileTarget>(transport: CurlTransport(), plugins: [plugin])
        let localhost = { (url: URL) in URL(string: url.absoluteString.replacingOccurrences(of: "127.0.0.1", with: "localhost"))! }

        let withIdentity = try await provider.request(HostileTarget(path: "/", base: localhost(strict)))
        #expect(String(decoding: withIdentity.data, as: UTF8.self) == "CN=client")
        let direct = await outcome { try await provider.request(HostileTarget(path: "/", base: strict)) }
        #expect(Self.tlsReason(direct.failure).contains("none was configured"))

        // nginx on localhost (identity presented) redirects to the strict server as 127.0.0.1:
        // that hop gets 127.0.0.1's policy, without the identity.
        let redirected = await outcome { try await provider.request(HostileTarget(path: "/to-strict-ip", base: localhost(mtls))) }
        #expect(Self.tlsReason(redirected.failure).contains("none was configured"))

        // Control: when 127.0.0.1 has the identity too, the same redirect succeeds.
        let both = Provider<HostileTarget>(
            transport: CurlTransport(),
            plugins: [
                PinningPlugin([
                    try .init(host: "localhost", certificates: [material.ca], clientIdentity: material.pem),
                    try .init(host: "127.0.0.1", certificates: [material.ca], clientIdentity: material.pkcs12),
                ])
            ])
        let followed = try await both.request(HostileTarget(path: "/to-strict-ip", base: localhost(mtls)))
        #expect(followed.statusCode == 200 && String(decoding: followed.data, as: UTF8.self) == "CN=client")
    }

    @Test("URLSessionTransport cannot present an identity and fails closed")
    func urlSessionFailsClosed() async throws {
        let server = try TestServers.require("NETKIT_MTLS_STRICT_URL")
        let material = try Material.load()
        let result = await outcome {
            try await Self.provider(identity: material.pem, material: material, transport: URLSessionTransport())
                .request(HostileTarget(path: "/", base: server))
        }
        guard case .tlsPolicyUnsupported? = result.failure else {
            Issue.record("expected .tlsPolicyUnsupported, got \(String(describing: result))")
            return
        }
    }

    @Test("Descriptions of identities, policies and pins never show the key or the password")
    func descriptionsHideSecrets() throws {
        let material = try Material.load()
        let keyLine = String(decoding: material.key, as: UTF8.self).split(separator: "\n").dropFirst().first.map(String.init) ?? "?"
        let identities: [ClientIdentity] = [
            .pem(certificate: material.certificate, key: material.key, passphrase: "hunter2"), .pkcs12(material.p12, password: "hunter2"),
        ]
        for identity in identities {
            let policy = TLSPolicy(trustedCertificates: [material.ca], clientIdentity: identity)
            let pin = try PinningPlugin.Pin(host: "127.0.0.1", clientIdentity: identity)
            var dumped = ""
            dump(policy, to: &dumped)
            for text in [String(describing: identity), String(reflecting: identity), String(describing: policy), String(reflecting: pin), dumped] {
                #expect(!text.contains("hunter2") && !text.contains(keyLine), "\(text)")
            }
        }
    }
}
