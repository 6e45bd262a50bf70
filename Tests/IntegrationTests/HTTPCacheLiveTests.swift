import Foundation
import NetCore
import NetPlugins
import Testing
import NetTestSupport

/// `CachePolicy.http` against the fault server's `/cache/<key>` origin (headers set per request,
/// requests counted, conditional headers recorded), on both transports and both storages.
@Suite("HTTP cache (.http policy), live", .liveServers)
struct HTTPCacheLiveTests {
    struct Stats: Decodable {
        var count: Int
        var methods: [String]
        var conditionals: [[String: String?]]
    }

    struct Setup {
        let provider: Provider<HostileTarget>
        let base: URL
        let key = "k\(UUID().uuidString.prefix(8))"
        let directory: URL?

        init(_ kind: TransportKind, onDisk: Bool) throws {
            base = try TestServers.require("NETKIT_FAULT_URL")
            directory =
                onDisk ? FileManager.default.temporaryDirectory.appendingPathComponent("netkit-http-cache-\(UUID())") : nil
            let storage: any CacheStorage = directory.map { DiskStorage(directory: $0) } ?? MemoryStorage()
            provider = Provider(transport: kind.make(), plugins: [CachePlugin(storage: storage, policy: .http, isPrivate: true)])
        }

        func request(_ query: Parameters, method: HTTPMethod = .get, headers: [String: String] = [:]) async throws -> Response {
            try await provider.request(
                HostileTarget(path: "/cache/\(key)", method: method, content: .query(query), headers: headers, base: base))
        }

        func stats() async throws -> Stats {
            try await provider.request(HostileTarget(path: "/cache/\(key)/stats", base: base)).decode(Stats.self)
        }

        func remove() {
            if let directory { try? FileManager.default.removeItem(at: directory) }
        }
    }

    static let storages = [false, true]

    @Test("a fresh response is answered from the cache", arguments: TransportKind.allCases, storages)
    func freshHit(kind: TransportKind, onDisk: Bool) async throws {
        let setup = try Setup(kind, onDisk: onDisk)
        defer { setup.remove() }
        _ = try await setup.request(["cc": "max-age=600"])
        let hit = try await setup.request(["cc": "max-age=600"])
        #expect(hit.source == .cache && hit.cacheInfo?.isStale == false)
        #expect(try await setup.stats().count == 1)
    }

    @Test("no-cache is revalidated with the stored validators; the 304 answers with the stored body", arguments: TransportKind.allCases, storages)
    func revalidation(kind: TransportKind, onDisk: Bool) async throws {
        let setup = try Setup(kind, onDisk: onDisk)
        defer { setup.remove() }
        let query: Parameters = ["cc": "no-cache", "etag": "W/\"v1\"", "last_modified": "100"]
        let first = try await setup.request(query)
        let second = try await setup.request(query)
        #expect(second.statusCode == 200 && second.data == first.data && second.source == .cache)
        let stats = try await setup.stats()
        #expect(stats.count == 2)
        #expect(stats.conditionals.last?["if-none-match"] == "W/\"v1\"")
        #expect((stats.conditionals.last?["if-modified-since"] ?? nil) != nil)
    }

    @Test("a POST to the URL invalidates its stored GET", arguments: TransportKind.allCases, storages)
    func invalidation(kind: TransportKind, onDisk: Bool) async throws {
        let setup = try Setup(kind, onDisk: onDisk)
        defer { setup.remove() }
        let query: Parameters = ["cc": "max-age=600"]
        _ = try await setup.request(query)
        _ = try await setup.request(query, method: .post)
        let refetched = try await setup.request(query)
        #expect(refetched.source == .network)
        #expect(try await setup.stats().methods == ["GET", "POST", "GET"])
    }
}
