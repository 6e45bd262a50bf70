import Foundation
import NetCore
import NetPlugins
import Testing
import NetTestSupport

/// `CachePolicy.http` against the fault servers' `/cache/<key>` origin (headers set per request,
/// requests counted, conditional headers recorded; `scripts/cache_origin.py`), on both storages:
/// over HTTP/1.1 on both transports, and over HTTP/2 (TLS) on the curl transport.
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

        /// Over HTTP/1.1 on `kind`.
        init(_ kind: TransportKind, onDisk: Bool) throws {
            try self.init(base: TestServers.require("NETKIT_FAULT_URL"), transport: kind.make(), plugins: [], onDisk: onDisk)
        }

        /// Over HTTP/2 on the curl transport (the HTTP/2 fault server's certificate pinned).
        init(overHTTP2 onDisk: Bool) throws {
            let server = try HTTP2Fault.server()
            try self.init(base: server.url, transport: CurlTransport(), plugins: [server.plugin], onDisk: onDisk)
        }

        private init(base: URL, transport: any Transport, plugins: [any Plugin], onDisk: Bool) throws {
            self.base = base
            directory =
                onDisk ? FileManager.default.temporaryDirectory.appendingPathComponent("netkit-http-cache-\(UUID())") : nil
            let storage: any CacheBackend = directory.map { DiskStorage(directory: $0) } ?? MemoryStorage()
            provider = Provider(
                transport: transport, plugins: plugins + [CachePlugin(storage: CacheStorage(storage), policy: .http, isPrivate: true)])
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

    @Test("over HTTP/2: a fresh hit, a 304 revalidation and an invalidating POST", arguments: storages)
    func overHTTP2(onDisk: Bool) async throws {
        let setup = try Setup(overHTTP2: onDisk)
        defer { setup.remove() }
        let fresh: Parameters = ["cc": "max-age=600"]
        let stored = try await setup.request(fresh)
        #expect(stored.metrics?.httpVersion == "HTTP/2")
        #expect(try await setup.request(fresh).source == .cache)
        _ = try await setup.request(fresh, method: .post)
        #expect(try await setup.request(fresh).source == .network)
        #expect(try await setup.stats().methods == ["GET", "POST", "GET"])

        let revalidated = try Setup(overHTTP2: onDisk)
        defer { revalidated.remove() }
        let validators: Parameters = ["cc": "no-cache", "etag": "\"v2\""]
        let first = try await revalidated.request(validators)
        let second = try await revalidated.request(validators)
        #expect(second.statusCode == 200 && second.data == first.data && second.source == .cache)
        let stats = try await revalidated.stats()
        #expect(stats.count == 2 && stats.conditionals.last?["if-none-match"] == "\"v2\"")
    }
}
