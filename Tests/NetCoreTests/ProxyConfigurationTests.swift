import NetTransportSupport
import Foundation
import NetCore
import NetTestSupport
import Testing

@Suite("ProxyConfiguration")
struct ProxyConfigurationTests {
    static let secret = "s3cr3t/P@ss"

    @Test("Proxy URLs parse into kind, host, port and decoded credentials")
    func parsing() throws {
        let http = try ProxyServer(url: "http://me:s3cr3t%2FP%40ss@proxy.corp:3128")
        #expect(http == .http(host: "proxy.corp", port: 3128, username: "me", password: Self.secret))
        #expect(http.address == "http://proxy.corp:3128")
        #expect(try ProxyServer(url: "proxy.corp:8080") == .http(host: "proxy.corp", port: 8080))
        #expect(try ProxyServer(url: "http://proxy.corp") == .http(host: "proxy.corp", port: 80))
        #expect(try ProxyServer(url: "socks5://127.0.0.1") == .socks5(host: "127.0.0.1", port: 1080))
        #expect(try ProxyServer(url: "socks5h://[::1]:9050") == .socks5(host: "::1", port: 9050))
        #expect(ProxyServer.socks5(host: "::1", port: 9050).address == "socks5h://[::1]:9050")
    }

    @Test("Unsupported or malformed proxy URLs are refused without repeating the password")
    func badURLs() {
        for text in ["https://u:\(Self.secret)@proxy:443", "ftp://proxy:21", "http://", "http://u:\(Self.secret)@proxy:70000"] {
            do {
                let server = try ProxyServer(url: text)
                Issue.record("\(text) parsed as \(server)")
            } catch {
                guard case .proxyFailed = error else {
                    Issue.record("\(text): \(error)")
                    continue
                }
                #expect(!error.description.contains(Self.secret))
            }
        }
    }

    @Test("Each scheme gets its own proxy; other schemes none")
    func perScheme() {
        let plain = ProxyServer.http(host: "a", port: 1)
        let secure = ProxyServer.http(host: "b", port: 2)
        let configuration = ProxyConfiguration(http: plain, https: secure)
        #expect(configuration.proxy(for: URL(string: "http://example.com/x")!) == plain)
        #expect(configuration.proxy(for: URL(string: "HTTPS://example.com/x")!) == secure)
        #expect(configuration.proxy(for: URL(string: "ftp://example.com/x")!) == nil)
        #expect(ProxyConfiguration.direct.proxy(for: URL(string: "https://example.com")!) == nil)
    }

    @Test(
        "The bypass list matches like NO_PROXY",
        arguments: [
            ("example.com", "example.com", true), ("example.com", "api.example.com", true), (".example.com", "example.com", true),
            ("*.example.com", "a.b.example.com", true), ("example.com", "notexample.com", false), ("example.com", "example.com.evil", false),
            ("EXAMPLE.com", "Example.COM", true), ("localhost:8080", "localhost", true), ("*", "anything.at.all", true),
            ("127.0.0.1", "127.0.0.1", true), ("127.0.0.1", "127.0.0.2", false), ("10.0.0.0/8", "10.1.2.3", true),
            ("10.0.0.0/8", "11.0.0.1", false), ("192.168.1.0/24", "192.168.1.77", true), ("::1", "[::1]", true),
            ("[fd00::]/8", "fd12::5", true), ("fd00::/8", "fe80::1", false), ("0.0.0.1", "1.0.0.0", false),
            ("", "example.com", false), ("*:8080", "anything.at.all", false), ("example.com.", "example.com", true),
        ])
    func bypass(entry: String, host: String, bypassed: Bool) {
        let configuration = ProxyConfiguration(.http(host: "proxy", port: 3128), bypass: [entry])
        #expect(configuration.bypasses(host: host) == bypassed)
        let url = URL(string: "https://\(host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host)/path")!
        #expect((configuration.proxy(for: url) == nil) == bypassed, "\(url)")
    }

    @Test("A proxy URL with a path (an unencoded \"/\" in the password) is refused, not read as an address")
    func proxyURLWithPathIsRefused() {
        for text in ["http://me:123/45@proxy.corp:3128", "http://proxy.corp:3128/path", "http://proxy.corp:3128?x=1"] {
            #expect(throws: NetworkError.self, "\(text)") { try ProxyServer(url: text) }
        }
        do {
            _ = try ProxyServer(url: "http://me:123/45@proxy.corp")
        } catch {
            #expect(error.description.contains("percent-encode") && !error.description.contains("45@"))
        }
        #expect((try? ProxyServer(url: "http://proxy.corp:3128/"))?.port == 3128)
    }

    @Test("The environment proxy libcurl would use by itself is found with libcurl's precedence and NO_PROXY")
    func environmentProxyVariable() {
        func variable(_ url: String, _ environment: [String: String]) -> String? {
            EnvironmentProxy.variable(for: URL(string: url)!) { environment[$0] }
        }
        #expect(variable("http://a.example/x", ["HTTP_PROXY": "http://p:1"]) == nil, "uppercase HTTP_PROXY is ignored, as libcurl does")
        #expect(variable("http://a.example/x", ["http_proxy": "http://p:1"]) == "http_proxy")
        #expect(variable("https://a.example/x", ["HTTPS_PROXY": "http://p:1"]) == "HTTPS_PROXY")
        #expect(variable("https://a.example/x", ["ALL_PROXY": "socks5h://p:1"]) == "ALL_PROXY")
        #expect(variable("https://a.example/x", ["https_proxy": " "]) == nil, "a blank value is unset")
        #expect(variable("https://a.example/x", ["https_proxy": "http://p:1", "NO_PROXY": "example.org,.example"]) == nil)
        #expect(variable("https://a.example/x", ["https_proxy": "http://p:1", "no_proxy": "other.example"]) == "https_proxy")
        #expect(variable("https://a.example/x", [:]) == nil)
        // libcurl's own reading of NO_PROXY, which differs from NetKit's bypass list: these never
        // exempt a host there, so the request would go through the proxy and must be refused.
        for noProxy in ["localhost,*", "*.example", "a.example:443", "0.0.0.0/0", "[a.example]"] {
            #expect(variable("https://a.example/x", ["https_proxy": "http://p:1", "no_proxy": noProxy]) == "https_proxy", "\(noProxy)")
        }
        #expect(variable("https://a.example/x", ["https_proxy": "http://p:1", "no_proxy": " * "]) == nil, "* alone is every host")
        #expect(variable("https://10.1.2.3/x", ["https_proxy": "http://p:1", "no_proxy": "10.0.0.0/8 other.example"]) == nil)
    }

    @Test("fromEnvironment reads the standard variables, lowercase first, and nothing else")
    func environment() throws {
        let configuration = try ProxyConfiguration.fromEnvironment([
            "http_proxy": "http://lower:1", "HTTP_PROXY": "http://upper:2", "HTTPS_PROXY": "socks5h://s:1080",
            "NO_PROXY": "localhost, .internal", "ALL_PROXY": "http://all:3",
        ])
        #expect(configuration.httpProxy == .http(host: "lower", port: 1))
        #expect(configuration.httpsProxy == .socks5(host: "s", port: 1080))
        #expect(configuration.bypass.map { $0.trimmingCharacters(in: .whitespaces) } == ["localhost", ".internal"])
        #expect(configuration.proxy(for: URL(string: "https://db.internal/")!) == nil)

        let empty = try ProxyConfiguration.fromEnvironment(["PATH": "/bin", "http_proxy": ""])
        #expect(empty == .direct)
        // CGI: a client controls HTTP_PROXY through a "Proxy:" header (httpoxy); it is ignored.
        let cgi = try ProxyConfiguration.fromEnvironment(["REQUEST_METHOD": "GET", "HTTP_PROXY": "http://evil:1"])
        #expect(cgi.httpProxy == nil)
    }

    @Test("fromEnvironment reads NO_PROXY as curl does, so NetKit and the curl command agree")
    func fromEnvironmentUsesCurlsNoProxyRules() throws {
        func bypass(_ noProxy: String) throws -> [String] {
            try ProxyConfiguration.fromEnvironment(["https_proxy": "http://p:1", "no_proxy": noProxy]).bypass
        }
        #expect(try bypass("localhost,*") == ["localhost"], "a * inside a list bypasses nothing")
        #expect(try bypass(" * ") == ["*"])
        #expect(try bypass("*.corp, a.example:8080, .internal,10.0.0.0/8 1.2.3.4/0") == [".internal", "10.0.0.0/8", "1.2.3.4"])
        let configuration = try ProxyConfiguration.fromEnvironment(["https_proxy": "http://p:1", "no_proxy": "localhost,*"])
        #expect(configuration.proxy(for: URL(string: "https://example.com/")!) != nil)
    }

    @Test("A bad environment value names the variable, not its contents")
    func badEnvironment() {
        do {
            _ = try ProxyConfiguration.fromEnvironment(["HTTPS_PROXY": "https://u:\(Self.secret)@proxy:443"])
            Issue.record("an https:// proxy was accepted")
        } catch {
            #expect(error.description.contains("HTTPS_PROXY"))
            #expect(!error.description.contains(Self.secret))
        }
    }

    @Test("Descriptions, debug descriptions and dumps never show the password")
    func redaction() {
        let server = ProxyServer.http(host: "proxy.corp", port: 3128, username: "me", password: Self.secret)
        let configuration = ProxyConfiguration(server, bypass: ["localhost"])
        var dumped = ""
        dump(configuration, to: &dumped)
        var request = Request(url: URL(string: "https://example.com")!, target: AnyTarget(TestTarget(path: "/")))
        request.proxy = configuration
        for text in [
            String(describing: configuration), String(reflecting: configuration), String(describing: server), String(reflecting: server),
            dumped, "\(request)",
        ] {
            #expect(!text.contains(Self.secret), "\(text)")
        }
        #expect(String(describing: server) == "http://proxy.corp:3128 (credentials: <redacted>)")
        #expect(request.proxy == configuration)
    }
}
