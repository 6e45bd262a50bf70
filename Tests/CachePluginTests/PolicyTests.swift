import Foundation
import NetCore
import NetPlugins
import NetTestSupport
import Testing

@Suite("Cache policies")
struct PolicyTests {
    let clock = TestClock()

    func plugin(_ storage: any CacheBackend = MemoryStorage(), maxAge: Duration? = nil) -> CachePlugin {
        let clock = clock
        return CachePlugin(storage: CacheStorage(storage), policy: .networkOnly, maxAge: maxAge, now: { clock.now })
    }

    @Test(".ignore neither reads nor writes")
    func ignore() async throws {
        let server = Server()
        let storage = MemoryStorage()
        let provider = Provider<Endpoint>(transport: server.transport, plugins: [plugin(storage)])
        let target = Endpoint(cachePolicy: .ignore)
        _ = try await provider.request(target)
        let second = try await provider.request(target)
        #expect(server.calls == 2)
        #expect(storage.count == 0)
        #expect(second.source == .network)
    }

    @Test(".networkOnly always sends and stores the result")
    func networkOnly() async throws {
        let server = Server()
        let storage = MemoryStorage()
        let provider = Provider<Endpoint>(transport: server.transport, plugins: [plugin(storage)])
        _ = try await provider.request(Endpoint(cachePolicy: .networkOnly))
        let second = try await provider.request(Endpoint(cachePolicy: .networkOnly))
        #expect(server.calls == 2)
        #expect(second.string() == "response 2")
        let cached = try await provider.request(Endpoint(cachePolicy: .cacheOnly))
        #expect(cached.string() == "response 2")
        #expect(cached.source == .cache)
        #expect(storage.count == 1)
    }

    @Test(".cacheOnly never sends: a miss fails with noCachedResponse")
    func cacheOnlyMiss() async {
        let server = Server()
        let provider = Provider<Endpoint>(transport: server.transport, plugins: [plugin()])
        await #expect {
            try await provider.request(Endpoint(cachePolicy: .cacheOnly))
        } throws: { error in
            if case NetworkError.noCachedResponse = error { return true }
            return false
        }
        #expect(server.calls == 0)
    }

    @Test(".cacheOnly answers a hit from the cache with its age")
    func cacheOnlyHit() async throws {
        let server = Server()
        let provider = Provider<Endpoint>(transport: server.transport, plugins: [plugin()])
        _ = try await provider.request(Endpoint(cachePolicy: .networkOnly))
        clock.advance(42)
        let response = try await provider.request(Endpoint(cachePolicy: .cacheOnly))
        #expect(server.calls == 1)
        #expect(response.source == .cache)
        #expect(response.cacheInfo == CacheInfo(age: .seconds(42), isStale: false))
        #expect(response.string() == "response 1")
    }

    @Test(".cacheElseNetwork sends once for two requests")
    func cacheElseNetwork() async throws {
        let server = Server()
        let provider = Provider<Endpoint>(transport: server.transport, plugins: [plugin()])
        let first = try await provider.request(Endpoint())
        let second = try await provider.request(Endpoint())
        #expect(server.calls == 1)
        #expect(first.source == .network)
        #expect(second.source == .cache)
        #expect(second.data == first.data)
        #expect(second.headers["Content-Type"] == "text/plain")
    }

    @Test(".networkElseCache answers a transport failure from the cache, marked stale")
    func networkElseCacheOffline() async throws {
        let server = Server { call, request in
            guard call == 1 else { throw NetworkError.connectionFailed(host: "api.example.com", reason: "refused") }
            return Response(statusCode: 200, data: Data("fresh".utf8), request: request)
        }
        let provider = Provider<Endpoint>(
            transport: server.transport, plugins: [plugin()],
            configuration: ProviderConfiguration(maxAttempts: 1))
        let target = Endpoint(cachePolicy: .networkElseCache)
        _ = try await provider.request(target)
        clock.advance(5)
        let offline = try await provider.request(target)
        #expect(server.calls == 2)
        #expect(offline.string() == "fresh")
        #expect(offline.source == .cache)
        #expect(offline.cacheInfo == CacheInfo(age: .seconds(5), isStale: true))
    }

    @Test(".networkElseCache keeps an HTTP error status: only transport failures fall back")
    func networkElseCacheServerError() async throws {
        let server = Server { call, request in
            Response(statusCode: call == 1 ? 200 : 500, data: Data("body \(call)".utf8), request: request)
        }
        let provider = Provider<Endpoint>(
            transport: server.transport, plugins: [plugin()],
            configuration: ProviderConfiguration(maxAttempts: 1))
        let target = Endpoint(cachePolicy: .networkElseCache)
        _ = try await provider.request(target)
        await #expect {
            try await provider.request(target)
        } throws: { error in
            (error as? NetworkError)?.statusCode == 500
        }
    }

    @Test(".networkElseCache with nothing stored keeps the transport error")
    func networkElseCacheEmpty() async {
        let server = Server { _, _ in throw NetworkError.timedOut }
        let provider = Provider<Endpoint>(
            transport: server.transport, plugins: [plugin()],
            configuration: ProviderConfiguration(maxAttempts: 1))
        await #expect {
            try await provider.request(Endpoint(cachePolicy: .networkElseCache))
        } throws: { error in
            if case NetworkError.timedOut = error { return true }
            return false
        }
    }

    @Test(".cacheThenNetwork yields the cached response, then the network one; request returns the final one")
    func cacheThenNetwork() async throws {
        let server = Server()
        let provider = Provider<Endpoint>(transport: server.transport, plugins: [plugin()])
        let target = Endpoint(cachePolicy: .cacheThenNetwork)
        let first = try await provider.request(target)
        #expect(first.string() == "response 1")

        var received: [Response] = []
        for try await response in provider.responses(target) { received.append(response) }
        #expect(received.map(\.source) == [.cache, .network])
        #expect(received.map { $0.string() } == ["response 1", "response 2"])

        let final = try await provider.request(target)
        #expect(final.source == .network)
        #expect(final.string() == "response 3")
        #expect(server.calls == 3)
    }

    @Test(".cacheThenNetwork with an empty cache yields only the network response")
    func cacheThenNetworkEmpty() async throws {
        let server = Server()
        let provider = Provider<Endpoint>(transport: server.transport, plugins: [plugin()])
        var received: [Response] = []
        for try await response in provider.responses(Endpoint(cachePolicy: .cacheThenNetwork)) { received.append(response) }
        #expect(received.map(\.source) == [.network])
    }

    @Test(".revalidate sends the stored validators; a 304 answers with the stored body and refreshes its age")
    func revalidate() async throws {
        let server = Server { call, request in
            if call == 1 {
                return Response(
                    statusCode: 200,
                    headers: [
                        "ETag": "\"v1\"", "Last-Modified": "Tue, 01 Jan 2030 00:00:00 GMT",
                        "Content-Type": "application/json",
                    ],
                    data: Data(#"{"n":1}"#.utf8), request: request)
            }
            return Response(statusCode: 304, headers: ["ETag": "\"v1\"", "X-Refreshed": "yes"], request: request)
        }
        let storage = MemoryStorage()
        let provider = Provider<Endpoint>(transport: server.transport, plugins: [plugin(storage)])
        let target = Endpoint(cachePolicy: .revalidate)
        let first = try await provider.request(target)
        #expect(first.statusCode == 200)
        #expect(server.requests[0].headers["If-None-Match"] == nil)

        clock.advance(100)
        let second = try await provider.request(target)
        #expect(server.requests[1].headers["If-None-Match"] == "\"v1\"")
        #expect(server.requests[1].headers["If-Modified-Since"] == "Tue, 01 Jan 2030 00:00:00 GMT")
        #expect(second.statusCode == 200)
        #expect(second.source == .cache)
        #expect(second.string() == #"{"n":1}"#)
        #expect(second.headers["X-Refreshed"] == "yes")
        #expect(second.headers["Content-Type"] == "application/json")
        #expect(second.cacheInfo == CacheInfo(age: .zero, isStale: false))

        let key = try #require(CachePlugin().key(for: server.requests[0]))
        #expect(storage.entry(for: key)?.storedAt == clock.now)
    }

    @Test(
        ".revalidate also swaps a 304 that the target's validation accepts",
        arguments: [
            Validation.none, .successAndRedirectCodes, .codes([200, 304]),
        ])
    func revalidateAcceptedNotModified(validation: Validation) async throws {
        let server = Server { call, request in
            call == 1
                ? Response(statusCode: 200, headers: ["ETag": "\"v1\""], data: Data("body".utf8), request: request)
                : Response(statusCode: 304, request: request)
        }
        let provider = Provider<Endpoint>(transport: server.transport, plugins: [plugin()])
        let target = Endpoint(validation: validation, cachePolicy: .revalidate)
        _ = try await provider.request(target)
        let second = try await provider.request(target)
        #expect(second.statusCode == 200)
        #expect(second.string() == "body")
        #expect(second.source == .cache)
    }

    @Test(".revalidate stores a changed 200 in place of the old entry")
    func revalidateChanged() async throws {
        let server = Server { call, request in
            Response(statusCode: 200, headers: ["ETag": "\"v\(call)\""], data: Data("body \(call)".utf8), request: request)
        }
        let provider = Provider<Endpoint>(transport: server.transport, plugins: [plugin()])
        let target = Endpoint(cachePolicy: .revalidate)
        _ = try await provider.request(target)
        let second = try await provider.request(target)
        _ = try await provider.request(target)
        #expect(second.string() == "body 2")
        #expect(server.requests[2].headers["If-None-Match"] == "\"v2\"")
    }

    @Test("the plugin default covers GET only; a policy provider closure can choose per target")
    func defaultsAndClosure() async throws {
        let server = Server()
        let defaults = CachePlugin(policy: .cacheElseNetwork)
        let provider = Provider<TestTarget>(transport: server.transport, plugins: [defaults])
        _ = try await provider.request(TestTarget(path: "plain"))
        _ = try await provider.request(TestTarget(path: "plain"))
        #expect(server.calls == 1)
        _ = try await provider.request(TestTarget(path: "plain", method: .post))
        _ = try await provider.request(TestTarget(path: "plain", method: .post))
        #expect(server.calls == 3)

        let closure = CachePlugin(
            policy: .ignore,
            policyProvider: { target in
                (target as? TestTarget)?.method == .post ? .cacheElseNetwork : nil
            })
        let other = Server()
        let second = Provider<TestTarget>(transport: other.transport, plugins: [closure])
        _ = try await second.request(TestTarget(path: "plain", method: .post))
        _ = try await second.request(TestTarget(path: "plain", method: .post))
        _ = try await second.request(TestTarget(path: "plain"))
        _ = try await second.request(TestTarget(path: "plain"))
        #expect(other.calls == 3)
    }

    @Test("requests with Authorization are not cached unless allowed")
    func authorization() async throws {
        let server = Server()
        let provider = Provider<Endpoint>(transport: server.transport, plugins: [plugin()])
        let secret = Endpoint(headers: ["Authorization": "Bearer t"])
        _ = try await provider.request(secret)
        _ = try await provider.request(secret)
        #expect(server.calls == 2)
        var allowed = secret
        allowed.cachesAuthorizedRequests = true
        _ = try await provider.request(allowed)
        _ = try await provider.request(allowed)
        #expect(server.calls == 3)
    }

    @Test("only 2xx responses are stored")
    func only2xx() async throws {
        let server = Server { call, request in
            Response(statusCode: call == 1 ? 203 : 404, data: Data("\(call)".utf8), request: request)
        }
        let storage = MemoryStorage()
        let provider = Provider<Endpoint>(transport: server.transport, plugins: [plugin(storage)])
        _ = try await provider.request(Endpoint(path: "a", cachePolicy: .networkOnly))
        _ = try? await provider.request(Endpoint(path: "b", cachePolicy: .networkOnly))
        _ = try? await provider.request(Endpoint(path: "c", validation: .none, cachePolicy: .networkOnly))
        #expect(server.calls == 3)
        #expect(storage.count == 1)
    }

    @Test("downloads to disk are not cached")
    func downloads() async throws {
        let server = Server()
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let storage = MemoryStorage()
        let provider = Provider<Endpoint>(transport: server.transport, plugins: [plugin(storage)])
        let target = Endpoint(content: .download(to: directory.appendingPathComponent("file"), resumable: false))
        _ = try await provider.request(target)
        _ = try await provider.request(target)
        #expect(server.calls == 2)
        #expect(storage.count == 0)
    }

    @Test("the sensitive-data component separates entries")
    func sensitiveData() async throws {
        let server = Server()
        let provider = Provider<Endpoint>(transport: server.transport, plugins: [plugin()])
        _ = try await provider.request(Endpoint(cacheSensitiveData: "alice"))
        _ = try await provider.request(Endpoint(cacheSensitiveData: "bob"))
        let alice = try await provider.request(Endpoint(cacheSensitiveData: "alice"))
        #expect(server.calls == 2)
        #expect(alice.string() == "response 1")
    }

    @Test("removeAll, remove(for:) and size queries manage the storage")
    func management() async throws {
        let server = Server()
        let cache = plugin()
        let provider = Provider<Endpoint>(transport: server.transport, plugins: [cache])
        _ = try await provider.request(Endpoint(path: "a"))
        _ = try await provider.request(Endpoint(path: "b"))
        #expect(await cache.count == 2)
        #expect(await cache.totalBytes > 0)
        await cache.remove(for: server.requests[0])
        #expect(await cache.count == 1)
        _ = try await provider.request(Endpoint(path: "a"))
        #expect(server.calls == 3)
        await cache.removeAll()
        #expect(await cache.count == 0)
        #expect(await cache.totalBytes == 0)
    }

    @Test("works through AnyTarget")
    func anyTarget() async throws {
        let server = Server()
        let provider = Provider<AnyTarget>(transport: server.transport, plugins: [plugin()])
        _ = try await provider.request(AnyTarget(Endpoint()))
        _ = try await provider.request(AnyTarget(Endpoint()))
        #expect(server.calls == 1)
    }
}
