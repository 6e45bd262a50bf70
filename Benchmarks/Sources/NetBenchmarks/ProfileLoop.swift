import Foundation
import NetCore

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
