import Foundation
import NetCore
import NetPlugins
import Testing

@Suite("Cache expiry, versions and Cache-Control")
struct ExpiryTests {
    let clock = TestClock()

    func provider(
        _ server: Server, maxAge: Duration? = nil, version: Int = 0,
        respectsCacheControl: Bool = true, storage: any CacheBackend = MemoryStorage()
    ) -> Provider<Endpoint> {
        let clock = clock
        let plugin = CachePlugin(
            storage: CacheStorage(storage), maxAge: maxAge, version: version,
            respectsCacheControl: respectsCacheControl, now: { clock.now })
        return Provider(transport: server.transport, plugins: [plugin])
    }

    @Test("an entry older than the maximum age is a miss (injected clock)")
    func maxAge() async throws {
        let server = Server()
        let provider = provider(server, maxAge: .seconds(60))
        _ = try await provider.request(Endpoint())
        clock.advance(59)
        #expect(try await provider.request(Endpoint()).source == .cache)
        clock.advance(1)
        #expect(try await provider.request(Endpoint()).source == .network)
        #expect(server.calls == 2)
    }

    @Test("a target's maximum age overrides the plugin's")
    func targetMaxAge() async throws {
        let server = Server()
        let provider = provider(server, maxAge: .seconds(3600))
        let target = Endpoint(cacheMaxAge: .seconds(10))
        _ = try await provider.request(target)
        clock.advance(11)
        _ = try await provider.request(target)
        #expect(server.calls == 2)
    }

    @Test("an expired entry is still offered by .cacheThenNetwork, marked stale")
    func staleProvisional() async throws {
        let server = Server()
        let provider = provider(server, maxAge: .seconds(10))
        let target = Endpoint(cachePolicy: .cacheThenNetwork)
        _ = try await provider.request(target)
        clock.advance(30)
        var received: [Response] = []
        for try await response in provider.responses(target) { received.append(response) }
        #expect(received.first?.cacheInfo == CacheInfo(age: .seconds(30), isStale: true))
        #expect(received.count == 2)
    }

    @Test("a new version makes old entries misses")
    func versionBump() async throws {
        let server = Server()
        let storage = MemoryStorage()
        _ = try await provider(server, version: 1, storage: storage).request(Endpoint())
        #expect(try await provider(server, version: 1, storage: storage).request(Endpoint()).source == .cache)
        let bumped = try await provider(server, version: 2, storage: storage).request(Endpoint())
        #expect(bumped.source == .network)
        #expect(try await provider(server, version: 1, storage: storage).request(Endpoint(cacheVersion: 2)).source == .cache)
        #expect(server.calls == 2)
    }

    @Test("Cache-Control: no-store is never stored (and removes an older entry)")
    func noStore() async throws {
        let server = Server { call, request in
            Response(
                statusCode: 200, headers: call == 1 ? [:] : ["Cache-Control": "private, no-store"],
                data: Data("\(call)".utf8), request: request)
        }
        let storage = MemoryStorage()
        let provider = provider(server, storage: storage)
        _ = try await provider.request(Endpoint(cachePolicy: .networkOnly))
        #expect(storage.count == 1)
        _ = try await provider.request(Endpoint(cachePolicy: .networkOnly))
        #expect(storage.count == 0)
    }

    @Test("no-store is stored when Cache-Control is not respected")
    func noStoreIgnored() async throws {
        let server = Server { _, request in
            Response(statusCode: 200, headers: ["Cache-Control": "no-store"], request: request)
        }
        let storage = MemoryStorage()
        _ = try await provider(server, respectsCacheControl: false, storage: storage).request(Endpoint())
        #expect(storage.count == 1)
    }

    @Test("Cache-Control max-age caps the age")
    func maxAgeCap() async throws {
        let server = Server { _, request in
            Response(statusCode: 200, headers: ["Cache-Control": "public, max-age=5"], request: request)
        }
        let provider = provider(server, maxAge: .seconds(3600))
        _ = try await provider.request(Endpoint())
        clock.advance(4)
        _ = try await provider.request(Endpoint())
        #expect(server.calls == 1)
        clock.advance(2)
        _ = try await provider.request(Endpoint())
        #expect(server.calls == 2)
    }
}
