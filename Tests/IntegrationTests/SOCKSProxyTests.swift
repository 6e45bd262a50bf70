import Foundation
import NetCore
import NetCurl
import NetPlugins
import Testing
import NetTestSupport

/// SOCKS5 through the two proxies `scripts/servers.sh` starts (`scripts/socks5_proxy.py`): one
/// open, one demanding user/password `user` / `pass`. Both connect only to the nginx ports, and
/// names ending in `.socks.test` resolve only inside the proxy: reaching such a name proves the
/// proxy resolved it (no DNS query left the client).
@Suite(.liveServers)
struct SOCKSProxyTests {
    static let secret = "s0cks-S3cret!"

    static func socks(_ variable: String, username: String? = nil, password: String? = nil) throws -> ProxyServer {
        var server = try ProxyServer(url: TestServers.require(variable).absoluteString)
        server.username = username
        server.password = password
        return server
    }

    /// `url` with its host replaced by `host`.
    static func replacingHost(of url: URL, with host: String) throws -> URL {
        var components = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false))
        components.host = host
        return try #require(components.url)
    }

    static func provider(_ server: ProxyServer, plugins: [any Plugin] = []) -> Provider<HostileTarget> {
        Provider<HostileTarget>(transport: CurlTransport(configuration: .init(proxy: ProxyConfiguration(server))), plugins: plugins)
    }

    @Test("Host names are resolved by the proxy: a name only the proxy knows is reached; without a proxy it is not")
    func remoteNameResolution() async throws {
        let nginx = try TestServers.require("NETKIT_NGINX_URL")
        let hidden = try Self.replacingHost(of: nginx, with: "only-inside.socks.test")
        let response = try await Self.provider(try Self.socks("NETKIT_SOCKS_URL")).request(HostileTarget(path: "/small.json", base: hidden))
        #expect(response.statusCode == 200 && response.data.count == 95)
        let direct = await outcome { try await Provider<HostileTarget>(transport: CurlTransport()).request(HostileTarget(path: "/small.json", base: hidden)) }
        #expect(direct.failure != nil, "the name must not resolve outside the proxy")
    }

    @Test("https through SOCKS still checks the origin's pins: the right pin passes, a wrong one fails")
    func pinsThroughSOCKS() async throws {
        let tls = try TestServers.require("NETKIT_TLS_URL")
        let right = try TestServers.requireValue("NETKIT_TLS_PIN")
        let path = try TestServers.requireValue("NETKIT_TLS_CERT")
        let certificate = try Data(contentsOf: URL(fileURLWithPath: path))
        // The certificate names 127.0.0.1, not this alias: the pin is what proves the server.
        let hidden = try Self.replacingHost(of: tls, with: "pinned.socks.test")
        func pinning(_ pin: String) throws -> PinningPlugin {
            PinningPlugin([try .init(host: "pinned.socks.test", keyHashes: [pin], certificates: [certificate], validatesHost: false)])
        }
        let proxy = try Self.socks("NETKIT_SOCKS_URL")
        let ok = try await Self.provider(proxy, plugins: [try pinning(right)]).request(HostileTarget(path: "/small.json", base: hidden))
        #expect(ok.statusCode == 200)
        let wrongPin = Data(repeating: 0x33, count: 32).base64EncodedString()
        let wrong = await outcome { try await Self.provider(proxy, plugins: [try pinning(wrongPin)]).request(HostileTarget(path: "/small.json", base: hidden)) }
        expectPinningFailed(wrong, "through SOCKS")
    }

    @Test("User/password SOCKS: none and wrong credentials fail as proxyFailed without the password in any text; right ones pass")
    func authentication() async throws {
        let nginx = try TestServers.require("NETKIT_NGINX_URL")
        let target = HostileTarget(path: "/small.json", base: try Self.replacingHost(of: nginx, with: "auth.socks.test"))
        let none = await outcome { try await Self.provider(try Self.socks("NETKIT_AUTH_SOCKS_URL")).request(target) }
        guard case .proxyFailed(_, let noneReason, _)? = none.failure else {
            Issue.record("no credentials: expected proxyFailed, got \(String(describing: none))")
            return
        }
        #expect(noneReason.contains("requires authentication"), "\(noneReason)")
        let wrongServer = try Self.socks("NETKIT_AUTH_SOCKS_URL", username: "user", password: Self.secret)
        let wrong = await outcome { try await Self.provider(wrongServer).request(target) }
        guard case .proxyFailed(let proxy, let wrongReason, _)? = wrong.failure else {
            Issue.record("wrong credentials: expected proxyFailed, got \(String(describing: wrong))")
            return
        }
        #expect(proxy == wrongServer.address)
        #expect(wrongReason.contains("rejected the credentials"), "\(wrongReason)")
        for text in [String(describing: wrong.failure), String(reflecting: wrong.failure), String(describing: wrongServer)] {
            #expect(!text.contains(Self.secret), "\(text)")
        }
        let right = try await Self.provider(try Self.socks("NETKIT_AUTH_SOCKS_URL", username: "user", password: "pass")).request(target)
        #expect(right.statusCode == 200)
    }

    @Test("A destination the SOCKS proxy refuses fails as proxyFailed naming the proxy")
    func refusedDestination() async throws {
        // The proxies connect only to the nginx ports; the fault server's port is refused (0x02).
        let fault = try TestServers.require("NETKIT_FAULT_URL")
        let proxy = try Self.socks("NETKIT_SOCKS_URL")
        let result = await outcome { try await Self.provider(proxy).request(HostileTarget(path: "/healthz", base: fault)) }
        guard case .proxyFailed(let name, let reason, _)? = result.failure else {
            Issue.record("expected proxyFailed, got \(String(describing: result))")
            return
        }
        #expect(name == proxy.address && reason.contains("refused or could not reach 127.0.0.1:\(fault.port ?? 0)"), "\(reason)")
    }
}
