import Foundation
import NetCore
import NetPlugins
import Testing

/// Hit throughput through the whole `Provider` pipeline. Timing-sensitive, so it runs only when
/// `NETKIT_CACHE_BENCH=1` (use a release build: `swift test -c release --filter PerformanceTests`).
@Suite("Cache hit throughput", .enabled(if: ProcessInfo.processInfo.environment["NETKIT_CACHE_BENCH"] == "1"))
struct PerformanceTests {
    struct Item: Decodable, Equatable {
        let id: Int
        let name: String
    }

    static let body = Data(#"{"id":1,"name":"cached item"}"#.utf8)

    /// Requests per second through `Provider.request(_:as:)`; with `storage == nil` there is no
    /// cache plugin and every request goes to the stub (the pipeline's own floor).
    func hitsPerSecond(storage: (any CacheStorage)?, count: Int) async throws -> Double {
        let server = Server { _, request in
            Response(statusCode: 200, headers: ["Content-Type": "application/json"], data: Self.body, request: request)
        }
        let plugins: [any Plugin] = storage.map { [CachePlugin(storage: $0, policy: .cacheElseNetwork)] } ?? []
        let provider = Provider<Endpoint>(transport: server.transport, plugins: plugins)
        let target = Endpoint(content: .query(["page": 1, "lang": "en"]))
        let warm: Item = try await provider.request(target, as: Item.self)
        #expect(warm == Item(id: 1, name: "cached item"))
        let clock = ContinuousClock()
        let start = clock.now
        for _ in 0..<count {
            _ = try await provider.request(target, as: Item.self)
        }
        let elapsed = clock.now - start
        #expect(server.calls == (storage == nil ? count + 1 : 1))
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return Double(count) / seconds
    }

    @Test("a memory hit through Provider.request(_:as:) runs at least 100,000 times per second")
    func memoryHits() async throws {
        let floor = try await hitsPerSecond(storage: nil, count: 100_000)
        let rate = try await hitsPerSecond(storage: MemoryStorage(), count: 200_000)
        print("[cache-bench] no cache, stub transport (pipeline floor): \(Int(floor)) per second (\(String(format: "%.2f", 1e6 / floor)) us)")
        print("[cache-bench] memory hit: \(Int(rate)) per second (\(String(format: "%.2f", 1e6 / rate)) us)")
        #expect(rate >= 100_000)
    }

    @Test("a disk hit through Provider.request(_:as:) runs at least 10,000 times per second")
    func diskHits() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let rate = try await hitsPerSecond(storage: DiskStorage(directory: directory), count: 50_000)
        print("[cache-bench] disk hit: \(Int(rate)) per second (\(String(format: "%.2f", 1e6 / rate)) us)")
        #expect(rate >= 10_000)
    }

    @Test("the cache's own work for a memory hit (the prepare hook) takes under 3 us")
    func prepareHookCost() async throws {
        let plugin = CachePlugin(storage: MemoryStorage(), policy: .cacheElseNetwork)
        let target = Endpoint(content: .query(["page": 1, "lang": "en"]))
        let template = Request(url: URL(string: "https://api.example.com/items?page=1&lang=en")!,
                               headers: ["Accept-Language": "en"], target: target)
        _ = await plugin.succeed(Response(statusCode: 200, data: Self.body, request: template), for: {
            var request = template
            request.context = RequestContext()
            return request
        }())
        var primed = template
        _ = try await plugin.prepare(&primed)
        _ = await plugin.succeed(Response(statusCode: 200, data: Self.body, request: primed), for: primed)
        let count = 200_000
        let clock = ContinuousClock()
        let start = clock.now
        var hits = 0
        for _ in 0..<count {
            var request = template
            if case .respond = try await plugin.prepare(&request) { hits += 1 }
        }
        let elapsed = clock.now - start
        let micros = (Double(elapsed.components.seconds) * 1e6 + Double(elapsed.components.attoseconds) / 1e12) / Double(count)
        print("[cache-bench] prepare hook on a memory hit: \(String(format: "%.2f", micros)) us")
        #expect(hits == count)
        #expect(micros < 3)
    }
}
