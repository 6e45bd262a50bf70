import Foundation
import NetCore
import NetPlugins
import Testing

/// `Cache-Control: private` responses are stored only by a cache marked `isPrivate`.
@Suite("Private responses")
struct PrivateResponseTests {
    /// A server whose responses carry `Cache-Control: <control>` (none for `nil`) and "response N".
    static func server(_ control: @escaping @Sendable (Int) -> String?) -> Server {
        Server { call, request in
            Response(
                statusCode: 200, headers: HTTPHeaders(control(call).map { ["Cache-Control": $0] } ?? [:]),
                data: Data("response \(call)".utf8), request: request)
        }
    }

    func provider(
        _ storage: any CacheBackend, _ server: Server, isPrivate: Bool = false,
        respectsCacheControl: Bool = true
    ) -> Provider<Endpoint> {
        Provider<Endpoint>(
            transport: server.transport,
            plugins: [
                CachePlugin(storage: CacheStorage(storage), respectsCacheControl: respectsCacheControl, isPrivate: isPrivate)
            ])
    }

    @Test(
        "a shared cache never stores a private response, in any spelling",
        arguments: StorageKind.allCases, ["private", "Private, max-age=600", "max-age=60, private=\"Set-Cookie\""])
    func sharedCache(kind: StorageKind, control: String) async throws {
        let made = kind.make()
        defer { made.remove() }
        let server = Self.server { _ in control }
        let provider = provider(made.storage, server)
        _ = try await provider.request(Endpoint())
        let second = try await provider.request(Endpoint())
        #expect(second.source == .network)
        #expect(server.calls == 2)
        #expect(made.storage.count == 0)
    }

    @Test("a cache marked isPrivate stores and answers a private response", arguments: StorageKind.allCases)
    func perUserCache(kind: StorageKind) async throws {
        let made = kind.make()
        defer { made.remove() }
        let server = Self.server { _ in "private, max-age=600" }
        let provider = provider(made.storage, server, isPrivate: true)
        _ = try await provider.request(Endpoint())
        let second = try await provider.request(Endpoint())
        #expect(second.source == .cache)
        #expect(second.string() == "response 1")
        #expect(server.calls == 1)
        #expect(made.storage.count == 1)
    }

    @Test("a private response removes the public entry it replaces", arguments: StorageKind.allCases)
    func replacesPublicEntry(kind: StorageKind) async throws {
        let made = kind.make()
        defer { made.remove() }
        let server = Self.server { call in call == 1 ? "public, max-age=600" : "private" }
        let provider = provider(made.storage, server)
        _ = try await provider.request(Endpoint(cachePolicy: .networkOnly))
        #expect(made.storage.count == 1)
        _ = try await provider.request(Endpoint(cachePolicy: .networkOnly))
        #expect(made.storage.count == 0)
        await #expect(throws: NetworkError.self) {
            try await provider.request(Endpoint(cachePolicy: .cacheOnly))
        }
    }

    @Test("private is honoured even when respectsCacheControl is false", arguments: StorageKind.allCases)
    func ignoringCacheControl(kind: StorageKind) async throws {
        let made = kind.make()
        defer { made.remove() }
        let server = Self.server { _ in "private, no-store" }
        let shared = provider(made.storage, server, respectsCacheControl: false)
        _ = try await shared.request(Endpoint())
        #expect(made.storage.count == 0)
        // The per-user cache that ignores Cache-Control stores it (no-store is not respected).
        let perUser = provider(made.storage, server, isPrivate: true, respectsCacheControl: false)
        _ = try await perUser.request(Endpoint())
        #expect(made.storage.count == 1)
    }

    @Test("a 304 that turns the entry private is not stored back by a shared cache", arguments: StorageKind.allCases)
    func revalidatedPrivate(kind: StorageKind) async throws {
        let made = kind.make()
        defer { made.remove() }
        let server = Server { call, request in
            call == 1
                ? Response(statusCode: 200, headers: ["ETag": "\"v1\""], data: Data("body".utf8), request: request)
                : Response(statusCode: 304, headers: ["ETag": "\"v1\"", "Cache-Control": "private"], request: request)
        }
        let provider = provider(made.storage, server)
        let target = Endpoint(cachePolicy: .revalidate)
        _ = try await provider.request(target)
        let second = try await provider.request(target)
        #expect(second.string() == "body")
        #expect(made.storage.count == 0)
    }
}
