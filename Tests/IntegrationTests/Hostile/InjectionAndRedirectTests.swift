import Foundation
import NetCore
import NetPlugins
import Testing
import NetTestSupport

/// Callers cannot smuggle requests, and redirects never carry credentials or TLS policies to
/// another origin.
@Suite(.liveServers)
struct InjectionAndRedirectTests {
    @Test("A CR/LF header value or a bad method fails before anything reaches the server", arguments: TransportKind.allCases)
    func injectionNeverSent(kind: TransportKind) async throws {
        _ = try TestServers.require("NETKIT_FAULT_URL")
        let key = UUID().uuidString
        let provider = Provider<HostileTarget>(transport: kind.make())
        let smuggling = HostileTarget(
            path: "/counter/hit", content: .query(["key": key]),
            headers: ["X-Note": "a\r\n\r\nGET /counter/hit?key=\(key) HTTP/1.1\r\nHost: x"])
        let error = await outcome { try await provider.request(smuggling) }.failure
        guard case .invalidRequest(_, let reason)? = error else {
            Issue.record("expected invalidRequest, got \(String(describing: error))")
            return
        }
        #expect(reason.contains("X-Note"))
        var method = HostileTarget(path: "/counter/hit", content: .query(["key": key]))
        method.method = HTTPMethod(rawValue: "GET /counter/hit?key=\(key) HTTP/1.1\r\nHost: x\r\n\r\nGET")
        #expect(await outcome { try await provider.request(method) }.failure.map { "\($0)" }?.contains("method") == true)
        #expect(try await faultCounter(key) == 0, "nothing was sent")
    }

    /// Rewrites every request's URL in `prepare`, as a buggy or hostile plugin might.
    struct RewriteURL: Plugin {
        let url: URL
        func prepare(_ request: inout Request) async throws -> PrepareAction {
            request.url = url
            return .proceed
        }
    }

    @Test("A URL without a host by Swift's reading (http:///host:port/...) is never sent, through a provider or by hand", arguments: TransportKind.allCases)
    func hostlessURLNeverSent(kind: TransportKind) async throws {
        let fault = try TestServers.require("NETKIT_FAULT_URL")
        let key = UUID().uuidString
        // libcurl would read "127.0.0.1:port" as the host; Swift sees none, so proxy and pin
        // choices made in Swift would not apply to where the request really goes.
        let hostless = try #require(URL(string: "http:///127.0.0.1:\(fault.port ?? 0)/counter/hit?key=\(key)"))
        #expect(hostless.host == nil || hostless.host == "")
        let provider = Provider<HostileTarget>(transport: kind.make(), plugins: [RewriteURL(url: hostless)])
        let error = await outcome { try await provider.request(HostileTarget(path: "/counter/hit")) }.failure
        guard case .invalidURL(_, let reason)? = error else {
            Issue.record("expected invalidURL, got \(String(describing: error))")
            return
        }
        #expect(reason.contains("no host"))
        let byHand = Request(url: hostless, target: HostileTarget(path: "/"))
        let direct = await outcome { try await kind.make().send(byHand, progress: nil) }.failure
        guard case .invalidURL? = direct else {
            Issue.record("a hand-built request to the transport: expected invalidURL, got \(String(describing: direct))")
            return
        }
        #expect(try await faultCounter(key) == 0, "nothing was sent")
    }

    @Test("A redirect to another port of the same host drops Authorization, Cookie and configured headers", arguments: TransportKind.allCases)
    func crossPortRedirectDropsCredentials(kind: TransportKind) async throws {
        _ = try TestServers.require("NETKIT_FAULT_URL")
        let httpbin = try TestServers.require("NETKIT_HTTPBIN_URL")
        let policy = RedirectPolicy(sensitiveHeaders: ["X-Api-Key"])
        let provider = Provider<HostileTarget>(transport: kind.make(redirectPolicy: policy))
        let target = HostileTarget(
            path: "/redirect-to", content: .query(["url": httpbin.appendingPathComponent("headers").absoluteString]),
            headers: ["Authorization": "Bearer secret-a", "Cookie": "session=secret-c", "X-Api-Key": "secret-k", "X-Visible": "yes"],
            validation: .successCodes)
        let response = try await provider.request(target)
        let echoed = try response.decode([String: String].self, atKeyPath: "headers")
        let names = Set(echoed.keys.map { $0.lowercased() })
        #expect(names.contains("x-visible"), "the redirect was followed: \(echoed)")
        #expect(!names.contains("authorization"))
        #expect(!names.contains("cookie"))
        #expect(!names.contains("x-api-key"))
    }

    @Test("A same-origin redirect keeps the credentials", arguments: TransportKind.allCases)
    func sameOriginRedirectKeepsCredentials(kind: TransportKind) async throws {
        _ = try TestServers.require("NETKIT_FAULT_URL")
        let provider = Provider<HostileTarget>(transport: kind.make())
        let target = HostileTarget(
            path: "/redirect-to", content: .query(["url": "/headers"]),
            headers: ["Authorization": "Bearer same", "Cookie": "c=1"], validation: .successCodes)
        let echoed = try await provider.request(target).decode([String: String].self, atKeyPath: "headers")
        #expect(echoed.first { $0.key.lowercased() == "authorization" }?.value == "Bearer same")
        #expect(echoed.first { $0.key.lowercased() == "cookie" }?.value == "c=1")
    }

    @Test(
        "307 and 308 keep the method and the body; 303 continues as a bodiless GET",
        arguments: TransportKind.allCases, [307, 308, 303])
    func redirectMethodAndBody(kind: TransportKind, status: Int) async throws {
        _ = try TestServers.require("NETKIT_FAULT_URL")
        let body = Data((0..<50_000).map { UInt8($0 % 251) })
        let target = HostileTarget(
            path: "/redirect-to", method: .post,
            content: .withQuery(.data(body, contentType: "application/octet-stream"), ["url": "/echo", "status": status]),
            validation: .successCodes)
        let echo = try await Provider<HostileTarget>(transport: kind.make()).request(target).json() as? [String: Any]
        if status == 303 {
            #expect(echo?["method"] as? String == "GET")
            #expect(echo?["body_length"] as? Int == 0)
        } else {
            #expect(echo?["method"] as? String == "POST")
            #expect(echo?["body_length"] as? Int == body.count, "\(status) kept the body: \(String(describing: echo))")
        }
    }

    @Test("A redirect to a non-http scheme is refused", arguments: TransportKind.allCases)
    func nonHTTPRedirectRefused(kind: TransportKind) async throws {
        _ = try TestServers.require("NETKIT_FAULT_URL")
        let target = HostileTarget(path: "/redirect-to", content: .query(["url": "file:///etc/passwd"]))
        let error = await outcome { try await Provider<HostileTarget>(transport: kind.make()).request(target) }.failure
        #expect({ if case .redirectRefused? = error { true } else { false } }(), "\(String(describing: error))")
    }
}

/// The TLS policy is chosen for every hop's own origin.
@Suite(.liveServers)
struct PerHopTLSTests {
    static let wrongPin = Data(repeating: 7, count: 32).base64EncodedString()

    static func server() throws -> (url: URL, pin: String, certificate: Data) {
        try SecurityPathTests.tlsServer()
    }

    @Test("An unpinned http hop redirecting to a pinned host gets that host's pins checked", arguments: TransportKind.allCases)
    func unpinnedToPinned(kind: TransportKind) async throws {
        _ = try TestServers.require("NETKIT_FAULT_URL")
        let server = try Self.server()
        let pinned = server.url.appendingPathComponent("small.json").absoluteString
        let pinning = PinningPlugin([try .init(host: "127.0.0.1", keyHashes: [Self.wrongPin], certificates: [server.certificate])])
        let provider = Provider<HostileTarget>(transport: kind.make(), plugins: [pinning])
        let error = await outcome {
            try await provider.request(HostileTarget(path: "/redirect-to", content: .query(["url": pinned]), validation: .successCodes))
        }.failure
        switch (kind, error) {
        case (.curl, .pinningFailed(let host)?): #expect(host == "127.0.0.1")
        case (.urlSession, .tlsPolicyUnsupported(_, let host)?): #expect(host == "127.0.0.1")
        default: Issue.record("the pinned hop was not checked: \(String(describing: error))")
        }

        let rightPins = PinningPlugin([try .init(host: "127.0.0.1", keyHashes: [server.pin], certificates: [server.certificate])])
        if kind == .curl {
            let response = try await Provider<HostileTarget>(transport: kind.make(), plugins: [rightPins])
                .request(HostileTarget(path: "/redirect-to", content: .query(["url": pinned]), validation: .successCodes))
            #expect(response.statusCode == 200, "the right pin passes on the second hop")
        }
    }

    @Test("A pinned host redirecting to another pinned host applies the second host's pins and names it")
    func pinnedToOtherPinned() async throws {
        let server = try Self.server()
        var components = URLComponents(url: server.url, resolvingAgainstBaseURL: false)!
        components.host = "localhost"
        let localhost = try #require(components.url)
        let pinning = PinningPlugin([
            try .init(host: "localhost", keyHashes: [server.pin], certificates: [server.certificate]),
            try .init(host: "127.0.0.1", keyHashes: [Self.wrongPin], certificates: [server.certificate]),
        ])
        let provider = Provider<HostileTarget>(transport: TransportKind.curl.make(), plugins: [pinning])
        let error = await outcome { try await provider.request(HostileTarget(path: "/to-ip", base: localhost, validation: .successCodes)) }.failure
        guard case .pinningFailed(let host)? = error else {
            Issue.record("expected pinningFailed for the second host, got \(String(describing: error))")
            return
        }
        #expect(host == "127.0.0.1")
    }
}
