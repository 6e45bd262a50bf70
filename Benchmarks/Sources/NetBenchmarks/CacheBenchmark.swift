import Foundation
import NetCore
import NetCurl
import NetPlugins

/// Cache hits through `Provider.request(_:as:)` on one task (one core), memory and
/// disk, next to a CurlTransport round trip to the same nginx.
func cacheBenchmark(total: Int) async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("netkit-bench-cache-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    let transport = CurlTransport()
    let memory = Provider<BenchAPI>(transport: transport, plugins: [CachePlugin(storage: .memory(), policy: .cacheElseNetwork)])
    let disk = Provider<BenchAPI>(transport: transport, plugins: [CachePlugin(storage: .disk(directory: directory), policy: .cacheElseNetwork)])
    let network = Provider<BenchAPI>(transport: transport)
    // The `.http` policy stores what the server lets it: nginx sends no freshness for the file,
    // so this transport adds `max-age` to what it answers (hits never reach it anyway).
    let rfc = Provider<BenchAPI>(
        transport: FreshnessAddingTransport(base: transport), plugins: [CachePlugin(storage: .memory(), policy: .http, isPrivate: true)])
    let hits = total * 10
    let document = BenchAPI.small.sampleResponse.data
    let decoder = JSONDecoder()
    let results = try await compare(
        [
            ("network: Provider + CurlTransport", { _ in _ = try await network.request(.small, as: SmallDocument.self) }),
            ("JSONDecoder alone (the floor of any decoded hit)", { _ in _ = try decoder.decode(SmallDocument.self, from: document) }),
            ("memory cache hit", { _ in _ = try await memory.request(.small, as: SmallDocument.self) }),
            ("memory cache hit, .http (RFC 9111)", { _ in _ = try await rfc.request(.small, as: SmallDocument.self) }),
            ("disk cache hit", { _ in _ = try await disk.request(.small, as: SmallDocument.self) }),
        ], total: hits, concurrency: 1)
    report("Cache hits, sequential (one core), \(hits) requests", results)
    let roundTrip = 1 / results[0].1.perSecond
    for (name, measurement) in results.dropFirst(2) {
        print("\(name): \(format(measurement.perSecond)) per second, \(format(100 / measurement.perSecond / roundTrip, decimals: 1))% of a network round trip")
    }
}

/// Answers like `base`, with `Cache-Control: max-age=3600` added.
struct FreshnessAddingTransport: Transport {
    let base: any Transport
    var capabilities: TransportCapabilities { base.capabilities }

    func send(_ request: Request, progress: ProgressHandler?) async throws -> Response {
        var response = try await base.send(request, progress: progress)
        response.headers["Cache-Control"] = "max-age=3600"
        return response
    }
}
