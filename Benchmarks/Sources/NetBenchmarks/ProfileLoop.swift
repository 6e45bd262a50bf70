import Foundation
import NetCore
import NetCurl
import NetPlugins

/// `--profile-loop=N[,C]`: N requests through `Provider()` (default transport) + 5 no-op plugins +
/// decode, C at a time (default 1), and nothing else; for counting instructions or syscalls per
/// request (`perf stat`, `strace -c`, callgrind): per request = (run of N2 − run of N1) / (N2 − N1).
func profileLoop(_ spec: String) async throws {
    let parts = spec.split(separator: ",").compactMap { Int($0) }
    let total = parts.first ?? 1000, concurrency = parts.count > 1 ? max(1, parts[1]) : 1
    let provider = Provider<BenchAPI>(plugins: (0..<5).map { _ in NoOpPlugin() })
    let run = try await measure(total: total, concurrency: concurrency) { _ in _ = try await provider.request(.small, as: SmallDocument.self) }
    print("\(run.requests) requests, \(format(run.perSecond)) req/s, \(format(run.cpuMicrosPerRequest, decimals: 1)) us CPU/req")
}

/// `--profile-cache=POLICY[,N]`: N memory cache hits (default 200,000) under `http` (RFC 9111) or
/// `cacheElseNetwork`, and nothing else; for `perf record` of one hit path.
func profileCacheHits(_ spec: String) async throws {
    let parts = spec.split(separator: ",")
    let policy: CachePolicy = parts.first == "http" ? .http : .cacheElseNetwork
    let total = parts.count > 1 ? Int(parts[1]) ?? 200_000 : 200_000
    let transport = FreshnessAddingTransport(base: CurlTransport())
    let provider = Provider<BenchAPI>(
        transport: transport, plugins: [CachePlugin(storage: MemoryStorage(), policy: policy, isPrivate: true)])
    _ = try await provider.request(.small, as: SmallDocument.self)
    let run = try await measure(total: total, concurrency: 1) { _ in _ = try await provider.request(.small, as: SmallDocument.self) }
    print("\(run.requests) hits, \(format(run.cpuMicrosPerRequest, decimals: 2)) us CPU/hit")
    let plugin = CachePlugin(storage: MemoryStorage(), policy: policy, isPrivate: true)
    let warm = Provider<BenchAPI>(transport: transport, plugins: [plugin])
    _ = try await warm.request(.small, as: SmallDocument.self)
    let template = try await warm.buildRequest(.small)
    let prepares = try await measure(total: total, concurrency: 1) { _ in
        var request = template
        _ = try await plugin.prepare(&request)
    }
    print("prepare alone: \(format(prepares.cpuMicrosPerRequest, decimals: 2)) us CPU")
}
