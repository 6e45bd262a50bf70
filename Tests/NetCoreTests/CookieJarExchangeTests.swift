import NetTransportSupport
import NetToolbox
import Foundation
import NetTestSupport
import Testing

@testable import NetBase
@testable import NetCore

/// Where the jar meets requests: every redirect hop (RedirectFollower, used by both built-in
/// transports) and the provider's exchange with a transport that does not follow redirects.
@Suite("CookieJar: hops and providers")
struct CookieJarExchangeTests {
    /// Answers each hop from `script` (by URL) and records what each hop carried.
    final class ScriptedHops: Sendable {
        let script: [String: Response]
        private let sent = Locked<[Request]>([])

        init(_ script: [String: (status: Int, headers: HTTPHeaders)]) {
            let request = Request(url: cookieURL("https://unused.example/"), target: TestTarget())
            self.script = script.mapValues { Response(statusCode: $0.status, headers: $0.headers, request: request) }
        }

        var requests: [Request] { sent.withLock { $0 } }
        var cookieHeaders: [String?] { requests.map { $0.headers["Cookie"] } }

        func send(_ request: Request) -> Response {
            sent.withLock { $0.append(request) }
            var response = script[request.url.absoluteString] ?? Response(statusCode: 404, request: request)
            response.request = request
            return response
        }

        func follow(_ request: Request) async throws -> Response {
            try await RedirectFollower.send(request, policy: .secure, maxRedirects: 5) { self.send($0) }
        }
    }

    func request(_ text: String, jar: CookieJar?, cookie: String? = nil) -> Request {
        var request = Request(url: cookieURL(text), target: TestTarget())
        request.cookieJar = jar
        if let cookie { request.headers["Cookie"] = cookie }
        return request
    }

    @Test("A 3xx hop's Set-Cookie is stored and sent on the next hop; the final response's is stored too")
    func redirectHopsCarryCookies() async throws {
        let jar = makeJar()
        let hops = ScriptedHops([
            "https://a.example/login": (302, ["Location": "/home", "Set-Cookie": "sid=1; Path=/"]),
            "https://a.example/home": (200, ["Set-Cookie": "seen=1"]),
        ])
        let response = try await hops.follow(request("https://a.example/login", jar: jar))
        #expect(hops.cookieHeaders == [nil, "sid=1"])
        #expect(jar.pairs("https://a.example/") == ["sid=1", "seen=1"])
        #expect(response.request.headers["Cookie"] == nil)
    }

    @Test("Across origins the caller's Cookie header is dropped, and the jar adds only the new host's cookies")
    func crossOriginHop() async throws {
        let jar = makeJar()
        jar.set("a=1", from: "https://a.example/")
        jar.set("b=1", from: "https://b.example/")
        let hops = ScriptedHops([
            "https://a.example/go": (302, ["Location": "https://b.example/land"]),
            "https://b.example/land": (200, [:]),
        ])
        _ = try await hops.follow(request("https://a.example/go", jar: jar, cookie: "mine=x"))
        #expect(hops.cookieHeaders == ["mine=x; a=1", "b=1"])
    }

    @Test("Same origin: the caller's Cookie header stays first, the jar adds only names it does not carry, never twice")
    func callerHeaderMerges() async throws {
        let jar = makeJar()
        jar.set("a=jar", "b=jar", from: "https://a.example/")
        let hops = ScriptedHops([
            "https://a.example/1": (302, ["Location": "/2", "Set-Cookie": "c=jar"]),
            "https://a.example/2": (200, [:]),
        ])
        _ = try await hops.follow(request("https://a.example/1", jar: jar, cookie: "a=mine"))
        #expect(hops.cookieHeaders == ["a=mine; b=jar", "a=mine; b=jar; c=jar"])
    }

    @Test("Without a jar nothing is added or kept")
    func noJar() async throws {
        let hops = ScriptedHops([
            "https://a.example/1": (302, ["Location": "/2", "Set-Cookie": "c=1"]),
            "https://a.example/2": (200, [:]),
        ])
        _ = try await hops.follow(request("https://a.example/1", jar: nil))
        #expect(hops.cookieHeaders == [nil, nil])
    }

    @Test("A provider applies its jar around a stub: the stub sees the Cookie header, plugins see the request as built")
    func providerWithStub() async throws {
        let jar = makeJar()
        let seen = Locked<[String?]>([])
        let stub = StubTransport(
            behavior: .custom { request in
                seen.withLock { $0.append(request.headers["Cookie"]) }
                let login = request.url.path.hasSuffix("login")
                return Response(statusCode: 200, headers: login ? ["Set-Cookie": "sid=abc; Secure; HttpOnly"] : [:], request: request)
            })
        let recorder = Recorder()
        var plugin = RecordingPlugin("p", recorder)
        let pluginSaw = Locked<[String?]>([])
        plugin.onWillSend = { request in
            pluginSaw.withLock { $0.append(request.headers["Cookie"]) }
            return .proceed
        }
        var configuration = ProviderConfiguration()
        #expect(configuration.cookieJar == nil)
        configuration.cookieJar = jar
        let provider = Provider<TestTarget>(transport: stub, plugins: [plugin], configuration: configuration)
        let response = try await provider.request(TestTarget(path: "login"))
        _ = try await provider.request(TestTarget(path: "items"))
        #expect(seen.withLock { $0 } == [nil, "sid=abc"])
        #expect(pluginSaw.withLock { $0 } == [nil, nil])
        #expect(response.request.headers["Cookie"] == nil)
    }

    @Test("A provider without a jar keeps nothing from a stub's Set-Cookie")
    func providerWithoutJar() async throws {
        let seen = Locked<[String?]>([])
        let stub = StubTransport(
            behavior: .custom { request in
                seen.withLock { $0.append(request.headers["Cookie"]) }
                return Response(statusCode: 200, headers: ["Set-Cookie": "sid=abc"], request: request)
            })
        let provider = Provider<TestTarget>(transport: stub)
        _ = try await provider.request(TestTarget())
        _ = try await provider.request(TestTarget())
        #expect(seen.withLock { $0 } == [nil, nil])
    }

    @Test("The built-in transports apply the jar per hop themselves; stubs leave it to the provider")
    func capabilities() {
        #expect(URLSessionTransport().capabilities.contains(.cookieJar))
        #expect(!StubTransport().capabilities.contains(.cookieJar))
        let configuration = URLSessionTransport.defaultConfiguration
        #expect(configuration.httpCookieStorage == nil)
        #expect(configuration.httpShouldSetCookies == false)
    }

    @Test("DeduplicatingTransport never shares a transfer between requests with different jars")
    func deduplicationKeysByJar() {
        let first = makeJar(), second = makeJar()
        let key = { (jar: CookieJar?) in FlightKey(self.request("https://a.example/", jar: jar), keyHeaders: []) }
        #expect(key(first) == key(first))
        #expect(key(first) != key(second))
        #expect(key(first) != key(nil))
    }
}
