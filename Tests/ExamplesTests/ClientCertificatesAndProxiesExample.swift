// A client certificate presented through an authenticating proxy (CurlTransport), as the
// article "Security model" describes.
// It runs against the real servers scripts/test starts: nginx demanding a client certificate
// (NETKIT_MTLS_URL) reached through tinyproxy with BasicAuth (NETKIT_AUTH_PROXY_URL).
import Foundation
import NetCore
import NetCurl
import NetPlugins
import NetTestSupport
import Testing

@Suite("README: Client certificates and proxies")
struct ClientCertificatesAndProxiesExample {
    /// The README's partner API: nginx's `/whoami` answers the client certificate's subject.
    enum PartnerAPI: TargetType {
        case whoami
        var baseURL: URL { TestServers.url("NETKIT_MTLS_URL")! }
        var path: String { "/whoami" }
        var method: HTTPMethod { .get }
        var content: RequestContent { .plain }
    }

    /// Sends requests to internal hosts without the proxy, whatever the transport's configuration says.
    struct InternalHostsDirect: Plugin {
        func prepare(_ request: inout Request) async throws -> PrepareAction {
            if request.url.host?.hasSuffix(".internal.corp") == true { request.proxy = .direct }
            return .proceed
        }
    }

    @Test(.liveServers) func identityIsPresentedThroughTheAuthenticatingProxy() async throws {
        let server = try TestServers.require("NETKIT_MTLS_URL")
        let values = try TestServers.requireValues("NETKIT_AUTH_PROXY_URL", "NETKIT_CLIENT_P12", "NETKIT_MTLS_CA")
        let (proxyURL, p12Path, caPath) = (values[0], values[1], values[2])
        let p12File = URL(fileURLWithPath: p12Path)
        let p12Password = "secret"
        let partnerCA = try Data(contentsOf: URL(fileURLWithPath: caPath))
        let proxyAddress = try ProxyServer(url: proxyURL)
        let proxyPassword = "pass"

        // README, first block (host and port are the test server's).
        let identity = ClientIdentity.pkcs12(try Data(contentsOf: p12File), password: p12Password)
        let pinning = PinningPlugin([
            try .init(host: server.host!, port: server.port!, certificates: [partnerCA], clientIdentity: identity)
        ])
        // README, second block (the proxy is tinyproxy with "BasicAuth user pass").
        let proxy = ProxyConfiguration(
            .http(host: proxyAddress.host, port: proxyAddress.port, username: "user", password: proxyPassword),
            bypass: ["localhost", ".internal.corp"])
        let provider = Provider<PartnerAPI>(
            transport: CurlTransport(configuration: .init(proxy: proxy)), plugins: [pinning, InternalHostsDirect()])

        let response = try await provider.request(.whoami)
        #expect(String(decoding: response.data, as: UTF8.self) == "CN=client")
        #expect(String(describing: proxy).contains("(credentials: <redacted>)"))
        #expect(!String(describing: identity).contains(p12Password))
    }
}

extension ClientCertificatesAndProxiesExample {
    /// The README's first block, compiled (the test above runs it against the test servers).
    static func readmeClientIdentity(p12File: URL, p12Password: String, partnerCA: Data) throws -> PinningPlugin {
        let identity = ClientIdentity.pkcs12(try Data(contentsOf: p12File), password: p12Password)
        // or .pem(certificate: certificatePEM, key: keyPEM, passphrase: nil)
        let pinning = PinningPlugin([
            try .init(host: "partner.example.com", port: 8443, certificates: [partnerCA], clientIdentity: identity)
        ])
        return pinning
    }

    /// The README's second block, compiled.
    static func readmeProxy(pinning: PinningPlugin, proxyPassword: String) -> Provider<PartnerAPI> {
        /// Sends requests to internal hosts without the proxy, whatever the transport's configuration says.
        struct InternalHostsDirect: Plugin {
            func prepare(_ request: inout Request) async throws -> PrepareAction {
                if request.url.host?.hasSuffix(".internal.corp") == true { request.proxy = .direct }
                return .proceed
            }
        }

        let proxy = ProxyConfiguration(
            .http(host: "proxy.corp", port: 3128, username: "me", password: proxyPassword),
            bypass: ["localhost", "127.0.0.0/8", ".internal.corp"])
        let provider = Provider<PartnerAPI>(
            transport: CurlTransport(configuration: .init(proxy: proxy)), plugins: [pinning, InternalHostsDirect()])
        return provider
    }
}
