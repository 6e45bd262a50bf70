import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import NetCore
import Testing
import NetTestSupport

/// `ProviderConfiguration.cookieJar` against httpbin and the fault server, on both transports:
/// cookies set on redirect hops, deletion, hostile Set-Cookie values, and cross-origin hops
/// (127.0.0.1 and localhost are different hosts).
@Suite("Cookie jar, live", .liveServers)
struct CookieJarLiveTests {
    func provider(_ kind: TransportKind, jar: CookieJar?) -> Provider<HostileTarget> {
        Provider(transport: kind.make(), configuration: ProviderConfiguration(cookieJar: jar))
    }

    /// What httpbin's `/cookies` saw.
    func httpbinCookies(_ provider: Provider<HostileTarget>, _ path: String, query: Parameters = [:]) async throws -> [String: String] {
        let base = try TestServers.require("NETKIT_HTTPBIN_URL")
        let response = try await provider.request(HostileTarget(path: path, content: .query(query), base: base))
        return try response.decode([String: String].self, atKeyPath: "cookies")
    }

    /// The `Cookie` header the fault server's `/headers` received at `base` (nil: none).
    func sentCookie(_ provider: Provider<HostileTarget>, path: String = "/headers", query: Parameters = [:], base: URL? = nil) async throws -> String? {
        let response = try await provider.request(HostileTarget(path: path, content: .query(query), base: base))
        return try response.decode([String: String].self, atKeyPath: "headers")["Cookie"]
    }

    /// The fault server under the name `localhost` (a different host for cookies).
    func faultAtLocalhost() throws -> URL {
        let fault = try TestServers.require("NETKIT_FAULT_URL")
        return try #require(URL(string: "http://localhost:\(fault.port ?? 0)"))
    }

    @Test("httpbin: a cookie set on a 302 goes with the next hop and with later requests", arguments: TransportKind.allCases)
    func setOnRedirectThenSent(kind: TransportKind) async throws {
        let jar = CookieJar()
        let provider = provider(kind, jar: jar)
        #expect(try await httpbinCookies(provider, "/cookies/set/session/abc123") == ["session": "abc123"])
        #expect(try await httpbinCookies(provider, "/cookies") == ["session": "abc123"])
        #expect(jar.allCookies.map(\.name) == ["session"])
    }

    @Test("httpbin: without a jar nothing is kept", arguments: TransportKind.allCases)
    func nothingWithoutJar(kind: TransportKind) async throws {
        let provider = provider(kind, jar: nil)
        #expect(try await httpbinCookies(provider, "/cookies/set/session/abc123").isEmpty)
        #expect(try await httpbinCookies(provider, "/cookies").isEmpty)
    }

    @Test("httpbin: /cookies/delete removes the cookie from the jar", arguments: TransportKind.allCases)
    func deleted(kind: TransportKind) async throws {
        let jar = CookieJar()
        let provider = provider(kind, jar: jar)
        _ = try await httpbinCookies(provider, "/cookies/set/session/abc123")
        #expect(try await httpbinCookies(provider, "/cookies/delete", query: ["session": ParameterValue.null]).isEmpty)
        #expect(jar.allCookies.isEmpty)
    }

    /// Every fault-server case; each also sets "ok=1", which must be kept.
    static let hostileCases = ["public-suffix", "other-site", "ip-domain", "secure-over-http", "control", "huge", "nameless", "flood"]

    @Test("Hostile Set-Cookie values are neither stored nor sent", arguments: TransportKind.allCases, hostileCases)
    func hostileSetCookie(kind: TransportKind, name: String) async throws {
        _ = try TestServers.require("NETKIT_FAULT_URL")
        let jar = CookieJar()
        let provider = provider(kind, jar: jar)
        _ = try await provider.request(HostileTarget(path: "/set-cookies", content: .query(["case": name])))
        let sent = try await sentCookie(provider)
        let stored = jar.allCookies
        if name == "flood" {
            #expect(stored.count == 50)
            #expect(stored.contains { $0.name == "ok" }, "the last line is the most recent cookie")
            #expect(sent?.split(separator: ";").count == 50)
        } else {
            #expect(sent == "ok=1")
            #expect(stored.map(\.name) == ["ok"])
        }
        #expect(!stored.contains { $0.name.hasPrefix("evil") || $0.name.contains("__Host") })
        for cookie in stored { #expect(!(cookie.name + cookie.value).unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }) }
    }

    @Test("A NUL in a Set-Cookie value fails the response or is ignored; it never reaches a request", arguments: TransportKind.allCases)
    func nulByte(kind: TransportKind) async throws {
        _ = try TestServers.require("NETKIT_FAULT_URL")
        let jar = CookieJar()
        let provider = provider(kind, jar: jar)
        let result = await outcome { try await provider.request(HostileTarget(path: "/set-cookies", content: .query(["case": "nul"]))) }
        let sent = try await sentCookie(provider)
        switch result {
        case .success: #expect(sent == "ok=1")
        // libcurl refuses the header ("Nul byte in header"): CurlTransport says .invalidResponse;
        // URLSession on Linux passes it on as an unknown URLError (.transport).
        case .failure(let error): #expect(kind == .urlSession || error.code == .invalidResponse, "\(error)")
        }
        #expect(!jar.allCookies.contains { $0.name == "evil" })
    }

    @Test("A cookie of 127.0.0.1 never reaches localhost after a redirect, and localhost gets its own", arguments: TransportKind.allCases)
    func crossOriginRedirect(kind: TransportKind) async throws {
        let localhost = try faultAtLocalhost()
        let jar = CookieJar()
        let provider = provider(kind, jar: jar)
        _ = try await provider.request(HostileTarget(path: "/set-cookies", content: .query(["case": "lines", "line": "ip=1"])))
        _ = try await provider.request(HostileTarget(path: "/set-cookies", content: .query(["case": "lines", "line": "lh=1"]), base: localhost))
        let toLocalhost = localhost.appendingPathComponent("headers").absoluteString
        #expect(try await sentCookie(provider, path: "/redirect-to", query: ["url": toLocalhost]) == "lh=1")
        let fault = try TestServers.require("NETKIT_FAULT_URL")
        let toIP = fault.appendingPathComponent("headers").absoluteString
        #expect(try await sentCookie(provider, path: "/redirect-to", query: ["url": toIP], base: localhost) == "ip=1")
        // A Cookie header set by the caller is dropped across origins; the jar's own still applies.
        var withHeader = HostileTarget(path: "/redirect-to", content: .query(["url": toLocalhost]))
        withHeader.headers = ["Cookie": "mine=1"]
        let response = try await provider.request(withHeader)
        #expect(try response.decode([String: String].self, atKeyPath: "headers")["Cookie"] == "lh=1")
    }

    @Test("A cookie set on a 302 to another host is stored for its own host only", arguments: TransportKind.allCases)
    func setOnCrossOriginRedirect(kind: TransportKind) async throws {
        let localhost = try faultAtLocalhost()
        let jar = CookieJar()
        let provider = provider(kind, jar: jar)
        let target = localhost.appendingPathComponent("headers").absoluteString
        let sent = try await sentCookie(provider, path: "/set-cookies", query: ["case": "lines", "line": "hop=1", "redirect": target])
        #expect(sent == nil)
        #expect(jar.cookies(for: try TestServers.require("NETKIT_FAULT_URL")).map(\.name) == ["hop"])
        #expect(jar.cookies(for: localhost).isEmpty)
    }

    /// Set-Cookie fields whose values hold commas (http-state's parser cases).
    static let commaFields = ["z=y, a=b", #"foo="bar, baz=qux""#]

    /// `/set-cookies` answering with one Set-Cookie field per line (`line=…&line=…`).
    func setCookieLines(_ lines: [String], base: URL? = nil) -> HostileTarget {
        var target = HostileTarget(
            path: "/set-cookies", content: .query(["case": "lines", "line": ParameterValue.array(lines.map { .string($0) })]), base: base)
        target.parameterEncoding = ParameterEncoding(arrayStyle: .repeatedKeys)
        return target
    }

    @Test("HTTP/1.1: a Set-Cookie field with commas is one cookie (URLSession joins fields, so only quotes save it)", arguments: TransportKind.allCases)
    func commasInFields(kind: TransportKind) async throws {
        _ = try TestServers.require("NETKIT_FAULT_URL")
        let jar = CookieJar()
        let provider = provider(kind, jar: jar)
        _ = try await provider.request(setCookieLines(Self.commaFields))
        let stored = Dictionary(uniqueKeysWithValues: jar.allCookies.map { ($0.name, $0.value) })
        #expect(stored["foo"] == #""bar, baz=qux""#)
        switch kind {
        case .curl: #expect(stored == ["z": "y, a=b", "foo": #""bar, baz=qux""#])
        // FoundationNetworking hands over one joined value: "z=y, a=b" cannot be told from two fields.
        case .urlSession: #expect(stored == ["z": "y", "a": "b", "foo": #""bar, baz=qux""#])
        }
    }

    @Test("HTTP/2: each set-cookie field is one cookie, commas and all")
    func commasInFieldsOverHTTP2() async throws {
        let server = try HTTP2Fault.server()
        let jar = CookieJar()
        let provider = Provider<HostileTarget>(
            transport: CurlTransport(), plugins: [server.plugin], configuration: ProviderConfiguration(cookieJar: jar))
        let big = "k=" + String(repeating: "v", count: 4089) + "; Path=/"
        _ = try await provider.request(setCookieLines(Self.commaFields + [big], base: server.url))
        let stored = Dictionary(uniqueKeysWithValues: jar.allCookies.map { ($0.name, $0.value) })
        #expect(stored["z"] == "y, a=b")
        #expect(stored["foo"] == #""bar, baz=qux""#)
        #expect(stored["k"]?.utf8.count == 4089)
    }

    @Test("RFC 6265 §6.1: a cookie of 4096 bytes (name, value and attributes) is kept", arguments: TransportKind.allCases)
    func cookieOf4096Bytes(kind: TransportKind) async throws {
        _ = try TestServers.require("NETKIT_FAULT_URL")
        let jar = CookieJar()
        let provider = provider(kind, jar: jar)
        let line = "k=" + String(repeating: "v", count: 4089) + "; Path=/"
        #expect(line.utf8.count - "=; ".utf8.count == 4096, "name, value and attributes sum to 4096 (RFC 6265 §6.1)")
        _ = try await provider.request(setCookieLines([line]))
        #expect(jar.allCookies.first { $0.name == "k" }?.value.utf8.count == 4089)
        #expect(try await sentCookie(provider)?.hasPrefix("k=vvvv") == true)
    }

    /// Removes what `storage` holds for `url`'s host (the shared store outlives a test).
    static func clear(_ storage: HTTPCookieStorage, for url: URL) {
        for cookie in storage.cookies(for: url) ?? [] { storage.deleteCookie(cookie) }
    }

    @Test("URLSession: a configuration's own cookie store is honoured on every hop, and the caller's object is not changed")
    func sessionConfigurationCookieStore() async throws {
        let httpbin = try TestServers.require("NETKIT_HTTPBIN_URL")
        let storage = HTTPCookieStorage.shared
        Self.clear(storage, for: httpbin)
        defer { Self.clear(storage, for: httpbin) }
        let configuration = URLSessionConfiguration.default
        configuration.httpCookieStorage = storage
        configuration.httpShouldSetCookies = true
        configuration.httpCookieAcceptPolicy = .always
        let provider = Provider<HostileTarget>(transport: URLSessionTransport(configuration: configuration))
        #expect(configuration.httpCookieStorage === storage && configuration.httpShouldSetCookies, "the caller's configuration is untouched")
        #expect(configuration.httpCookieAcceptPolicy == .always)
        #expect(try await httpbinCookies(provider, "/cookies/set/session/abc123") == ["session": "abc123"], "sent on the redirect hop")
        #expect(try await httpbinCookies(provider, "/cookies") == ["session": "abc123"], "and on later requests")
        #expect(storage.cookies(for: httpbin)?.map(\.name) == ["session"])
    }

    @Test("URLSession: a provider's CookieJar wins over the configuration's store")
    func jarWinsOverSessionStore() async throws {
        let httpbin = try TestServers.require("NETKIT_HTTPBIN_URL")
        let storage = HTTPCookieStorage.shared
        Self.clear(storage, for: httpbin)
        defer { Self.clear(storage, for: httpbin) }
        let jar = CookieJar()
        let provider = Provider<HostileTarget>(
            transport: URLSessionTransport(configuration: .default), configuration: ProviderConfiguration(cookieJar: jar))
        #expect(try await httpbinCookies(provider, "/cookies/set/session/abc123") == ["session": "abc123"])
        #expect(jar.allCookies.map(\.name) == ["session"])
        #expect(storage.cookies(for: httpbin)?.isEmpty ?? true)
    }
}
