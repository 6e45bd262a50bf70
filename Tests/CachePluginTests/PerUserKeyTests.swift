import NetToolbox
import Foundation
import NetCore
import NetPlugins
import NetTestSupport
import Testing

/// "The cache must never serve one user's response to another": credential headers are part of
/// the key when authorized requests are cached, and keep requests out of the cache otherwise.
@Suite("Per-user cache keys")
struct PerUserKeyTests {
    func provider(
        _ storage: any CacheBackend, _ server: Server, authorized: Bool = true,
        credentialHeaders: Set<String> = [], after plugins: [any Plugin] = []
    ) -> Provider<Endpoint> {
        let cache = CachePlugin(
            storage: CacheStorage(storage), cachesAuthorizedRequests: authorized,
            credentialHeaders: credentialHeaders)
        return Provider<Endpoint>(transport: server.transport, plugins: [cache] + plugins)
    }

    /// Requests A, B, A, B with `header` set to the two values: each user gets their own response.
    func expectSeparateEntries(
        header: String, _ a: String, _ b: String, kind: StorageKind,
        credentialHeaders: Set<String> = []
    ) async throws {
        let made = kind.make()
        defer { made.remove() }
        let server = Server()
        let provider = provider(made.storage, server, credentialHeaders: credentialHeaders)
        var bodies: [String?] = []
        var sources: [ResponseSource] = []
        for value in [a, b, a, b] {
            let response = try await provider.request(Endpoint(headers: [header: value]))
            bodies.append(response.string())
            sources.append(response.source)
        }
        #expect(bodies == ["response 1", "response 2", "response 1", "response 2"])
        #expect(sources == [.network, .network, .cache, .cache])
        #expect(server.calls == 2)
        #expect(made.storage.count == 2)
    }

    @Test("Bearer B is never answered with the entry stored for Bearer A", arguments: StorageKind.allCases)
    func bearerTokens(kind: StorageKind) async throws {
        try await expectSeparateEntries(header: "Authorization", "Bearer A", "Bearer B", kind: kind)
    }

    @Test("requests with different cookies never share an entry", arguments: StorageKind.allCases)
    func cookies(kind: StorageKind) async throws {
        try await expectSeparateEntries(header: "Cookie", "session=A", "session=B", kind: kind)
    }

    @Test(
        "Proxy-Authorization and configured credential headers (any case) separate entries too",
        arguments: StorageKind.allCases)
    func otherCredentials(kind: StorageKind) async throws {
        try await expectSeparateEntries(header: "Proxy-Authorization", "Basic QQ==", "Basic Qg==", kind: kind)
        try await expectSeparateEntries(header: "X-Session", "one", "two", kind: kind, credentialHeaders: ["x-session"])
    }

    @Test(
        "an anonymous request never reads an entry stored for a credential, nor the reverse",
        arguments: StorageKind.allCases)
    func anonymousAndAuthorized(kind: StorageKind) async throws {
        let made = kind.make()
        defer { made.remove() }
        let server = Server()
        let provider = provider(made.storage, server)
        _ = try await provider.request(Endpoint(headers: ["Cookie": "session=A"]))
        let anonymous = try await provider.request(Endpoint())
        #expect(anonymous.source == .network)
        #expect(anonymous.string() == "response 2")
        let again = try await provider.request(Endpoint(headers: ["Cookie": "session=A"]))
        #expect(again.string() == "response 1")
        #expect(server.calls == 2)
    }

    @Test(
        "without cachesAuthorizedRequests, Cookie (like Authorization) keeps a request out of the cache",
        arguments: StorageKind.allCases)
    func cookieNotCachedByDefault(kind: StorageKind) async throws {
        let made = kind.make()
        defer { made.remove() }
        let server = Server()
        let provider = provider(made.storage, server, authorized: false, credentialHeaders: ["X-Api-Key"])
        for headers in [["Cookie": "session=A"], ["Proxy-Authorization": "Basic QQ=="], ["x-api-key": "k"]] {
            _ = try await provider.request(Endpoint(headers: headers))
            let second = try await provider.request(Endpoint(headers: headers))
            #expect(second.source == .network)
        }
        #expect(server.calls == 6)
        #expect(made.storage.count == 0)

        // Nor does it read what an anonymous request stored.
        _ = try await provider.request(Endpoint())
        let withCookie = try await provider.request(Endpoint(headers: ["Cookie": "session=A"]))
        #expect(withCookie.source == .network)
        #expect(server.calls == 8)
    }

    @Test(
        "a credential added after the cache's prepare is not stored under the anonymous key",
        arguments: StorageKind.allCases)
    func credentialAddedLater(kind: StorageKind) async throws {
        let made = kind.make()
        defer { made.remove() }
        let server = Server()
        let alice = provider(made.storage, server, after: [SetHeaderPlugin(name: "Authorization", value: "Bearer alice")])
        let anonymous = provider(made.storage, server)
        let first = try await alice.request(Endpoint())
        #expect(first.request.headers["Authorization"] == "Bearer alice")
        let second = try await anonymous.request(Endpoint())
        #expect(second.source == .network)
        #expect(second.string() == "response 2")
        #expect(server.calls == 2)
    }

    @Test("a disk entry never holds a credential in clear")
    func noCredentialOnDisk() async throws {
        let made = StorageKind.disk.make()
        defer { made.remove() }
        let server = Server()
        let provider = provider(made.storage, server)
        _ = try await provider.request(
            Endpoint(headers: [
                "Authorization": "Bearer secret-token-123",
                "Cookie": "sid=cookie-value-456",
            ]))
        let files = try made.fileContents()
        #expect(files.count == 1)
        #expect(!files.contains { $0.contains(text: "secret-token-123") || $0.contains(text: "cookie-value-456") })
    }

    @Test("the key ends with the SHA-256 of the credential lines; keys without credentials are unchanged")
    func keyText() throws {
        let plugin = CachePlugin(keyHeaders: [], credentialHeaders: ["X-Session"])
        let anonymous = try #require(plugin.key(for: makeRequest()))
        #expect(anonymous.rawValue == "1|GET|https://api.example.com/items||v0")

        let both = try #require(plugin.key(for: makeRequest(headers: ["cookie": "c=1", "Authorization": "Bearer A"])))
        let expected = SHA256.hex(Data("authorization:Bearer A\ncookie:c=1\n".utf8))
        #expect(both.rawValue == "1|GET|https://api.example.com/items||v0|c=" + expected)
        #expect(!both.rawValue.contains("Bearer"))

        let a = plugin.key(for: makeRequest(headers: ["Authorization": "Bearer A"]))
        let b = plugin.key(for: makeRequest(headers: ["Authorization": "Bearer B"]))
        let session = plugin.key(for: makeRequest(headers: ["x-session": "s"]))
        #expect(a != b)
        #expect(a == plugin.key(for: makeRequest(headers: ["authorization": "Bearer A"])))
        #expect(session != anonymous)

        // The public initializer digests only the names it is given.
        #expect(CacheKey(request: makeRequest(headers: ["Authorization": "Bearer A"]))?.rawValue == anonymous.rawValue)
        #expect(
            CacheKey(request: makeRequest(headers: ["Authorization": "Bearer A"]), credentialHeaders: ["authorization"])
                == a)
    }

    @Test("a header value cannot imitate the credential component of another user's key")
    func noForgedComponent() throws {
        let plugin = CachePlugin(cachesAuthorizedRequests: true)
        let victim = try #require(
            plugin.key(
                for: makeRequest(headers: [
                    "Accept-Language": "en",
                    "Authorization": "Bearer victim",
                ])))
        let digest = SHA256.hex(Data("authorization:Bearer victim\n".utf8))
        let forged = try #require(plugin.key(for: makeRequest(headers: ["Accept-Language": "en|c=" + digest])))
        #expect(forged != victim)
        #expect(forged.rawValue.hasSuffix("accept-language=en%7Cc=" + digest))
    }
}
