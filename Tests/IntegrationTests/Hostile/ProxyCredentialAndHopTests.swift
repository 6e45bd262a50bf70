import Foundation
import NetCore
import NetCurl
import NetPlugins
import Testing
import NetTestSupport

/// Credentials meant for a proxy stay with the proxy, a hostile proxy's answer is a proxy
/// failure, and a TLS policy set straight on a request never lapses at a redirect.
@Suite(.liveServers, .serialized)
struct ProxyCredentialAndHopTests {
    static let proxyCredential = "Basic dXNlcjpwYXNz"  // user:pass, what the authenticating tinyproxy wants

    /// The header fields an echo endpoint received, by lowercased name.
    static func echoedHeaders(_ response: Response) throws -> [String: String] {
        let fields = try response.decode([String: String].self, atKeyPath: "headers")
        return Dictionary(fields.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
    }

    @Test("Without a proxy, a request's Proxy-Authorization never reaches the origin (HTTP/1.1)", arguments: TransportKind.allCases)
    func proxyAuthorizationDroppedOverHTTP1(kind: TransportKind) async throws {
        _ = try TestServers.require("NETKIT_FAULT_URL")
        let provider = Provider<HostileTarget>(transport: kind.make())
        let response = try await provider.request(HostileTarget(path: "/headers", headers: ["Proxy-Authorization": Self.proxyCredential]))
        let headers = try Self.echoedHeaders(response)
        #expect(headers["proxy-authorization"] == nil, "\(kind) sent it: \(headers)")
    }

    @Test("Without a proxy, a request's Proxy-Authorization never reaches the origin (HTTP/2)")
    func proxyAuthorizationDroppedOverHTTP2() async throws {
        // URLSession on Linux cannot trust the per-run certificate (it takes no custom trust), so
        // this runs on CurlTransport; URLSessionTransport drops the field before any protocol.
        let (base, pinning) = try HTTP2Fault.server()
        let provider = Provider<HostileTarget>(transport: CurlTransport(), plugins: [pinning])
        let response = try await provider.request(HostileTarget(path: "/headers", headers: ["Proxy-Authorization": Self.proxyCredential], base: base))
        #expect(response.metrics?.httpVersion == "HTTP/2")
        #expect(try Self.echoedHeaders(response)["proxy-authorization"] == nil)
    }

    @Test("Through a CONNECT tunnel, a request's Proxy-Authorization goes to the proxy and not to the origin")
    func proxyAuthorizationGoesToTheProxy() async throws {
        let (base, pinning) = try HTTP2Fault.server()
        let proxy = try ProxyServer(url: TestServers.require("NETKIT_AUTH_PROXY_URL").absoluteString)
        let provider = Provider<HostileTarget>(transport: CurlTransport(configuration: .init(proxy: ProxyConfiguration(proxy))), plugins: [pinning])
        let response = try await provider.request(HostileTarget(path: "/headers", headers: ["Proxy-Authorization": Self.proxyCredential], base: base))
        // The authenticating proxy opened the tunnel, so it got the credential; the origin did not.
        #expect(response.statusCode == 200)
        #expect(try Self.echoedHeaders(response)["proxy-authorization"] == nil)
    }

    @Test("A proxy whose CONNECT answer has endless headers is a proxy failure, in time")
    func endlessConnectHeaders() async throws {
        let fault = try TestServers.require("NETKIT_FAULT_URL")
        let (base, pinning) = try HTTP2Fault.server()
        let proxy = ProxyServer.http(host: fault.host!, port: fault.port!)
        let provider = Provider<HostileTarget>(
            transport: CurlTransport(configuration: .init(proxy: ProxyConfiguration(proxy))), plugins: [pinning], configuration: .init(maxAttempts: 1))
        let outcome = await timed { try await provider.request(HostileTarget(path: "/ok", base: base, timeout: .seconds(3))) }
        guard case .proxyFailed? = outcome.result.failure else {
            Issue.record("\(outcome.result)")
            return
        }
        #expect(outcome.time < .seconds(3) + .milliseconds(NETKIT_SANITIZED ? 600 : 100))
    }

    /// Sets a TLS policy straight on every request, as a user's own plugin may.
    struct BarePolicy: Plugin {
        var policy: TLSPolicy
        func prepare(_ request: inout Request) async throws -> PrepareAction {
            request.tls = policy
            return .proceed
        }
    }

    @Test("A TLS policy set without a per-origin rule refuses a redirect to another origin; PinningPlugin's follows it")
    func barePolicyRefusesCrossOriginHop() async throws {
        let (base, pinning) = try HTTP2Fault.server()
        let other = try TestServers.require("NETKIT_TLS_URL")
        let certificate = try Data(contentsOf: URL(fileURLWithPath: try TestServers.requireValue("NETKIT_TLS_CERT")))
        let pin = try TestServers.requireValue("NETKIT_TLS_PIN")
        let hop = HostileTarget(path: "/redirect", content: .query(["to": other.appendingPathComponent("small.json").absoluteString]), base: base)

        let bare = Provider<HostileTarget>(
            transport: CurlTransport(), plugins: [BarePolicy(policy: TLSPolicy(pinnedKeyHashes: [pin], trustedCertificates: [certificate]))])
        let refused = await outcome { try await bare.request(hop) }
        guard case .redirectRefused(let reason)? = refused.failure else {
            Issue.record("a bare policy's cross-origin hop ended with \(refused)")
            return
        }
        #expect(reason.contains("redirectTLS"))

        let resolved = try await Provider<HostileTarget>(transport: CurlTransport(), plugins: [pinning]).request(hop)
        #expect(resolved.statusCode == 200)
    }
}
