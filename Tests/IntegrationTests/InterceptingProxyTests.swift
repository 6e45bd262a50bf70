import Foundation
import NetCore
import NetCurl
import NetPlugins
import Testing
import NetTestSupport

/// A man in the middle with a certificate from a CA the client trusts: `scripts/intercepting_proxy.py`
/// (`NETKIT_INTERCEPT_PROXY_URL`) takes `CONNECT` to any host, terminates TLS itself with the mTLS
/// servers' certificate (signed by `NETKIT_MTLS_CA`), asks for a client certificate and counts
/// the handshakes in which one was presented (`GET /status`).
///
/// A request pinned to the real server's key must fail with `.pinningFailed` before its client
/// certificate is sent: ``CurlTransport`` checks the pins inside the handshake (libcurl 7.88 checks
/// `CURLOPT_PINNEDPUBLICKEY` only after it). Curl only: `URLSessionTransport` on Linux cannot pin
/// nor present an identity, and fails closed before connecting (`MutualTLSTests`).
@Suite(.liveServers, .serialized)
struct InterceptingProxyTests {
    /// What the proxy has seen so far.
    struct Counts: Decodable, Equatable {
        var tunnels: Int
        var handshakes: Int
        var clientCertificates: Int

        enum CodingKeys: String, CodingKey {
            case tunnels, handshakes
            case clientCertificates = "client_certificates"
        }
    }

    static func counts() async throws -> Counts {
        let proxy = try TestServers.require("NETKIT_INTERCEPT_PROXY_URL")
        let response = try await Provider<HostileTarget>(transport: CurlTransport()).request(HostileTarget(path: "/status", base: proxy))
        return try JSONDecoder().decode(Counts.self, from: response.data)
    }

    /// A provider whose https requests go through the intercepting proxy, trusting the mTLS CA
    /// for 127.0.0.1 (so the impostor's chain is valid), pinned to `pin`, presenting `identity`.
    static func provider(pin: String, identity: ClientIdentity?) throws -> Provider<HostileTarget> {
        let proxy = try ProxyServer(url: TestServers.require("NETKIT_INTERCEPT_PROXY_URL").absoluteString)
        let material = try MutualTLSTests.Material.load()
        let plugin = PinningPlugin([try .init(host: "127.0.0.1", keyHashes: [pin], certificates: [material.ca], clientIdentity: identity)])
        return Provider<HostileTarget>(transport: CurlTransport(configuration: .init(proxy: ProxyConfiguration(proxy))), plugins: [plugin])
    }

    @Test("A request pinned to the real key fails with .pinningFailed at an intercepting proxy, which never sees its client certificate")
    func impostorNeverSeesTheClientCertificate() async throws {
        let nginx = try TestServers.require("NETKIT_TLS_URL")
        let realPin = try TestServers.requireValue("NETKIT_TLS_PIN")
        let material = try MutualTLSTests.Material.load()
        for identity in [material.pem, material.pkcs12] {
            let before = try await Self.counts()
            let result = await outcome {
                try await Self.provider(pin: realPin, identity: identity).request(HostileTarget(path: "/small.json", base: nginx))
            }
            guard case .pinningFailed(let host)? = result.failure else {
                Issue.record("expected .pinningFailed, got \(String(describing: result))")
                continue
            }
            #expect(host == "127.0.0.1")
            let after = try await Self.counts()
            #expect(after.tunnels > before.tunnels, "the request never reached the intercepting proxy")
            #expect(after.clientCertificates == before.clientCertificates, "the impostor received the client certificate (\(identity))")
            #expect(after.handshakes == before.handshakes, "the handshake with the impostor completed")
        }
    }

    @Test("Pinned to the proxy's own key, the request completes there and presents its certificate: the proxy counts what it sees")
    func proxyCountsAPresentedCertificate() async throws {
        let nginx = try TestServers.require("NETKIT_TLS_URL")
        let proxyPin = try TestServers.requireValue("NETKIT_MTLS_PIN")
        let before = try await Self.counts()
        let response = try await Self.provider(pin: proxyPin, identity: try MutualTLSTests.Material.load().pem)
            .request(HostileTarget(path: "/small.json", base: nginx))
        #expect(String(decoding: response.data, as: UTF8.self) == "impostor")
        let after = try await Self.counts()
        #expect(after.clientCertificates == before.clientCertificates + 1)
    }

    @Test("A correctly pinned request with a client certificate still works, on a new and on a reused connection")
    func rightPinWithIdentityWorks() async throws {
        let strict = try TestServers.require("NETKIT_MTLS_STRICT_URL")
        let mtls = try TestServers.require("NETKIT_MTLS_URL")
        let pin = try TestServers.requireValue("NETKIT_MTLS_PIN")
        let material = try MutualTLSTests.Material.load()
        let plugin = PinningPlugin([try .init(host: "127.0.0.1", keyHashes: [pin], certificates: [material.ca], clientIdentity: material.pem)])
        let provider = Provider<HostileTarget>(transport: CurlTransport(), plugins: [plugin])
        for server in [strict, mtls, strict, mtls] {
            let response = try await provider.request(HostileTarget(path: "/whoami", base: server))
            #expect(response.statusCode == 200 && String(decoding: response.data, as: UTF8.self) == "CN=client", "\(server)")
        }
    }

    @Test("A wrong pin with a client certificate fails with .pinningFailed on a server that demands the certificate")
    func wrongPinWithIdentityIsAPinningFailure() async throws {
        let strict = try TestServers.require("NETKIT_MTLS_STRICT_URL")
        let wrongPin = try TestServers.requireValue("NETKIT_TLS_PIN")
        let material = try MutualTLSTests.Material.load()
        let plugin = PinningPlugin([try .init(host: "127.0.0.1", keyHashes: [wrongPin], certificates: [material.ca], clientIdentity: material.pem)])
        let result = await outcome {
            try await Provider<HostileTarget>(transport: CurlTransport(), plugins: [plugin]).request(HostileTarget(path: "/", base: strict))
        }
        expectPinningFailed(result, "to the strict mutual-TLS server")
    }
}
