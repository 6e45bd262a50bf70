import Foundation
#if canImport(Glibc)
    import Glibc
#endif
import NetCore
import NetCurl
import NetPlugins
import Testing
import NetTestSupport

/// Proxies through the two tinyproxy instances `scripts/servers.sh` starts: `NETKIT_PROXY_URL`
/// (open) and `NETKIT_AUTH_PROXY_URL` (`BasicAuth user pass`). tinyproxy adds a `Via` header to
/// the responses it forwards, which shows the route of plain-http requests; https requests go
/// through a `CONNECT` tunnel, which the authenticating proxy proves (it refuses it without
/// credentials).
@Suite(.liveServers)
struct ProxyTests {
    /// A password that must never appear in any text.
    static let secret = "pr0xy-S3cret!"
    /// A port where nothing listens.
    static let deadProxy = ProxyServer.http(host: "127.0.0.1", port: 1)

    /// Sets ``Request/proxy`` on every request (a per-target choice would switch on the target).
    struct ProxyChoice: Plugin {
        var proxy: ProxyConfiguration
        func prepare(_ request: inout Request) async throws -> PrepareAction {
            request.proxy = proxy
            return .proceed
        }
    }

    static func open() throws -> ProxyServer { try ProxyServer(url: TestServers.require("NETKIT_PROXY_URL").absoluteString) }

    static func authenticating(username: String? = nil, password: String? = nil) throws -> ProxyServer {
        var server = try ProxyServer(url: TestServers.require("NETKIT_AUTH_PROXY_URL").absoluteString)
        server.username = username
        server.password = password
        return server
    }

    static func provider(_ proxy: ProxyConfiguration?, plugins: [any Plugin] = []) -> Provider<HostileTarget> {
        Provider<HostileTarget>(transport: CurlTransport(configuration: .init(proxy: proxy)), plugins: plugins)
    }

    /// The TLS nginx and a pinning plugin for it (`pin`: the right one by default).
    static func pinnedTLS(pin: String? = nil) throws -> (url: URL, plugin: PinningPlugin) {
        let url = try TestServers.require("NETKIT_TLS_URL")
        let right = try TestServers.requireValue("NETKIT_TLS_PIN")
        let path = try TestServers.requireValue("NETKIT_TLS_CERT")
        let certificate = try Data(contentsOf: URL(fileURLWithPath: path))
        return (url, PinningPlugin([try .init(host: "127.0.0.1", keyHashes: [pin ?? right], certificates: [certificate])]))
    }

    /// The `.proxyFailed` reason of `error`, or a recorded issue.
    static func proxyReason(_ error: NetworkError?, sourceLocation: SourceLocation = #_sourceLocation) -> String {
        guard case .proxyFailed(_, let reason, _)? = error else {
            Issue.record("expected .proxyFailed, got \(String(describing: error))", sourceLocation: sourceLocation)
            return ""
        }
        return reason
    }

    static func via(_ response: Response) -> String { response.headers["Via"] ?? "" }

    // MARK: Routes

    @Test("Plain http goes through the HTTP proxy (forwarded, Via: tinyproxy); without a proxy it does not")
    func httpThroughProxy() async throws {
        let nginx = try TestServers.require("NETKIT_NGINX_URL")
        let proxied = try await Self.provider(ProxyConfiguration(try Self.open())).request(HostileTarget(path: "/small.json", base: nginx))
        #expect(proxied.statusCode == 200 && proxied.data.count == 95)
        #expect(Self.via(proxied).contains("tinyproxy"), "Via: \(Self.via(proxied))")
        let direct = try await Self.provider(nil).request(HostileTarget(path: "/small.json", base: nginx))
        #expect(direct.statusCode == 200 && Self.via(direct).isEmpty)
    }

    @Test("https goes through a CONNECT tunnel and pins are still checked against the origin")
    func httpsThroughConnectKeepsPinning() async throws {
        let proxy = ProxyConfiguration(try Self.authenticating(username: "user", password: "pass"))
        let right = try Self.pinnedTLS()
        let response = try await Self.provider(proxy, plugins: [right.plugin]).request(HostileTarget(path: "/small.json", base: right.url))
        #expect(response.statusCode == 200 && response.data.count == 95)

        let wrongPin = Data(repeating: 0x5A, count: 32).base64EncodedString()
        let wrong = try Self.pinnedTLS(pin: wrongPin)
        let result = await outcome { try await Self.provider(proxy, plugins: [wrong.plugin]).request(HostileTarget(path: "/small.json", base: wrong.url)) }
        expectPinningFailed(result, "through the proxy")
    }

    @Test("A request's own proxy choice replaces the transport's, both ways")
    func perRequestOverride() async throws {
        let nginx = try TestServers.require("NETKIT_NGINX_URL")
        // The transport's proxy is dead: only the override lets the request through.
        let direct = try await Self.provider(ProxyConfiguration(Self.deadProxy), plugins: [ProxyChoice(proxy: .direct)])
            .request(HostileTarget(path: "/small.json", base: nginx))
        #expect(direct.statusCode == 200 && Self.via(direct).isEmpty)
        let proxied = try await Self.provider(nil, plugins: [ProxyChoice(proxy: ProxyConfiguration(try Self.open()))])
            .request(HostileTarget(path: "/small.json", base: nginx))
        #expect(Self.via(proxied).contains("tinyproxy"))
    }

    @Test("A provider's proxy applies over the shared default transport; a target's own choice wins over it")
    func perProviderAndPerTarget() async throws {
        let nginx = try TestServers.require("NETKIT_NGINX_URL")
        let viaProvider = Provider<HostileTarget>(configuration: ProviderConfiguration(proxy: ProxyConfiguration(try Self.open())))
        let proxied = try await viaProvider.request(HostileTarget(path: "/small.json", base: nginx))
        #expect(Self.via(proxied).contains("tinyproxy"), "Via: \(Self.via(proxied))")
        let direct = try await viaProvider.request(HostileTarget(path: "/small.json", base: nginx, proxy: .direct))
        #expect(direct.statusCode == 200 && Self.via(direct).isEmpty)
        // A target's proxy also replaces the transport's (dead) one.
        let targetChoice = try await Self.provider(ProxyConfiguration(Self.deadProxy))
            .request(HostileTarget(path: "/small.json", base: nginx, proxy: ProxyConfiguration(try Self.open())))
        #expect(Self.via(targetChoice).contains("tinyproxy"))
    }

    @Test("NO_PROXY-style bypass: listed hosts connect directly, others use the proxy")
    func bypassList() async throws {
        let nginx = try TestServers.require("NETKIT_NGINX_URL")
        let bypassed = try await Self.provider(ProxyConfiguration(Self.deadProxy, bypass: ["localhost", "127.0.0.0/8"]))
            .request(HostileTarget(path: "/small.json", base: nginx))
        #expect(bypassed.statusCode == 200)
        let notBypassed = await outcome {
            try await Self.provider(ProxyConfiguration(Self.deadProxy, bypass: ["localhost", "example.com"]))
                .request(HostileTarget(path: "/small.json", base: nginx))
        }
        #expect(Self.proxyReason(notBypassed.failure).contains("could not connect to the proxy"))
        let open = try await Self.provider(ProxyConfiguration(try Self.open(), bypass: ["127.0.0.1"]))
            .request(HostileTarget(path: "/small.json", base: nginx))
        #expect(Self.via(open).isEmpty)
    }

    // MARK: Authentication and failures

    @Test("CONNECT to an authenticating proxy: no credentials and wrong ones fail as proxyFailed; right ones pass")
    func proxyAuthentication() async throws {
        let tls = try Self.pinnedTLS()
        let target = HostileTarget(path: "/small.json", base: tls.url)
        let none = await outcome { try await Self.provider(ProxyConfiguration(try Self.authenticating()), plugins: [tls.plugin]).request(target) }
        #expect(Self.proxyReason(none.failure).contains("requires authentication"))
        // A password without a user name is not sent at all, and the message says so.
        let passwordOnly = await outcome {
            try await Self.provider(ProxyConfiguration(try Self.authenticating(password: Self.secret)), plugins: [tls.plugin]).request(target)
        }
        #expect(Self.proxyReason(passwordOnly.failure).contains("requires authentication"))

        let wrongProxy = ProxyConfiguration(try Self.authenticating(username: "user", password: Self.secret))
        let wrong = await outcome { try await Self.provider(wrongProxy, plugins: [tls.plugin]).request(target) }
        #expect(Self.proxyReason(wrong.failure).contains("rejected the credentials"))
        for text in [String(describing: wrong.failure), String(reflecting: wrong.failure), String(describing: wrongProxy), String(reflecting: wrongProxy)] {
            #expect(!text.contains(Self.secret), "\(text)")
        }

        let right = try await Self.provider(ProxyConfiguration(try Self.authenticating(username: "user", password: "pass")), plugins: [tls.plugin])
            .request(target)
        #expect(right.statusCode == 200)
    }

    @Test("Plain http through an authenticating proxy without credentials: the proxy's 407 is the response")
    func forwardedRequestGets407() async throws {
        // Forwarded (not tunnelled) requests get the proxy's answer as their response; with the
        // default validation that is .unacceptableStatus(407).
        let nginx = try TestServers.require("NETKIT_NGINX_URL")
        let response = try await Self.provider(ProxyConfiguration(try Self.authenticating())).request(HostileTarget(path: "/small.json", base: nginx))
        #expect(response.statusCode == 407)
        let authenticated = try await Self.provider(ProxyConfiguration(try Self.authenticating(username: "user", password: "pass")))
            .request(HostileTarget(path: "/small.json", base: nginx))
        #expect(authenticated.statusCode == 200 && Self.via(authenticated).contains("tinyproxy"))
    }

    @Test("A proxy that is down, unresolvable or speaks another protocol fails as proxyFailed")
    func brokenProxies() async throws {
        let nginx = try TestServers.require("NETKIT_NGINX_URL")
        let notSOCKS = try NotSOCKSListener()
        defer { notSOCKS.stop() }
        let cases: [(ProxyServer, String)] = [
            (Self.deadProxy, "could not connect to the proxy"),
            (.socks5(host: "127.0.0.1", port: 1, username: "u", password: Self.secret), "could not connect to the proxy"),
            (.http(host: "proxy.netkit-test.invalid", port: 3128), "could not be resolved"),
            // A SOCKS5 greeting answered with HTTP (CURLE_PROXY, 97).
            (.socks5(host: "127.0.0.1", port: notSOCKS.port, username: "u", password: Self.secret), "handshake failed"),
        ]
        for (server, expected) in cases {
            let result = await outcome { try await Self.provider(ProxyConfiguration(server)).request(HostileTarget(path: "/small.json", base: nginx)) }
            #expect(Self.proxyReason(result.failure).contains(expected), "\(server): \(String(describing: result.failure))")
            #expect(!String(describing: result.failure).contains(Self.secret))
            if case .proxyFailed(let proxy, _, _)? = result.failure { #expect(proxy == server.address) }
        }
    }

    // MARK: Environment

    /// The marker file the child process writes when ``environmentChild()`` passed.
    static let childMarker = "NETKIT_PROXY_ENV_CHILD_MARKER"

    @Test("*_PROXY environment variables are ignored unless fromEnvironment() is used (checked in a child process)")
    func environmentIsOptIn() async throws {
        _ = try TestServers.require("NETKIT_NGINX_URL")
        // The variables are process-wide (libcurl and URLSession read them), so they are set in a
        // child run of this test binary that runs only `environmentChild`.
        let marker = FileManager.default.temporaryDirectory.appendingPathComponent("netkit-proxy-env-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: marker) }
        var environment = ProcessInfo.processInfo.environment
        environment["http_proxy"] = "http://127.0.0.1:1"
        environment["HTTPS_PROXY"] = "http://127.0.0.1:1"
        environment["ALL_PROXY"] = "http://127.0.0.1:1"
        environment["no_proxy"] = nil
        environment["NO_PROXY"] = nil
        environment[Self.childMarker] = marker.path
        let child = Process()
        child.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        child.arguments = ["--testing-library", "swift-testing", "--filter", "ProxyTests/environmentChild"]
        child.environment = environment
        child.standardOutput = FileHandle.nullDevice
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            child.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do { try child.run() } catch { continuation.resume(throwing: error) }
        }
        #expect(status == 0)
        #expect((try? String(contentsOf: marker, encoding: .utf8)) == "ok", "the child test did not run or did not pass")
    }

    @Test(
        "(child process) environment proxies are ignored by default and used with fromEnvironment()",
        .enabled(if: ProcessInfo.processInfo.environment[Self.childMarker] != nil))
    func environmentChild() async throws {
        let nginx = try TestServers.require("NETKIT_NGINX_URL")
        let tls = try Self.pinnedTLS()
        // Every proxy variable names a dead port: a request that honoured one would fail.
        let plain = try await Self.provider(nil).request(HostileTarget(path: "/small.json", base: nginx))
        #expect(plain.statusCode == 200)
        let secure = try await Self.provider(nil, plugins: [tls.plugin]).request(HostileTarget(path: "/small.json", base: tls.url))
        #expect(secure.statusCode == 200)

        // URLSession's libcurl would follow the variables by itself: it refuses, naming one.
        let urlSession = Provider<HostileTarget>(transport: URLSessionTransport())
        let refused = await outcome { try await urlSession.request(HostileTarget(path: "/small.json", base: nginx)) }
        guard case .proxyFailed(let variable, let reason, _)? = refused.failure else {
            Issue.record("URLSessionTransport should refuse under http_proxy, got \(String(describing: refused))")
            return
        }
        #expect(variable == "http_proxy" && reason.contains("NO_PROXY"))

        let fromEnvironment = try ProxyConfiguration.fromEnvironment()
        #expect(fromEnvironment.httpProxy == Self.deadProxy && fromEnvironment.httpsProxy == Self.deadProxy)
        let opted = await outcome { try await Self.provider(fromEnvironment).request(HostileTarget(path: "/small.json", base: nginx)) }
        #expect(Self.proxyReason(opted.failure).contains("could not connect to the proxy"))

        if let marker = ProcessInfo.processInfo.environment[Self.childMarker] {
            try Data("ok".utf8).write(to: URL(fileURLWithPath: marker))
        }
    }
}

/// A TCP listener on 127.0.0.1 (a free port) that answers every connection with an HTTP error
/// line and closes it: what a SOCKS client meets when the "proxy" is not a SOCKS server. Stopped
/// with ``stop()``; its accept thread ends then.
final class NotSOCKSListener: Sendable {
    let port: Int
    private let socket: Int32

    init() throws {
        let fd = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                bind(fd, raw, length) == 0 && listen(fd, 8) == 0 && getsockname(fd, raw, &length) == 0
            }
        }
        guard fd >= 0, bound else {
            close(fd)
            throw NetworkError.transport(reason: "could not listen on 127.0.0.1")
        }
        socket = fd
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread.detachNewThread {
            while true {
                let client = accept(fd, nil, nil)
                if client < 0 { return }
                let reply = "HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n"
                _ = reply.withCString { send(client, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
                close(client)
            }
        }
    }

    func stop() {
        shutdown(socket, Int32(SHUT_RDWR))
        close(socket)
    }
}
