import Foundation
import NetCore

/// A plugin that implements nothing and declares nothing (every hook at its default).
struct EmptyPlugin: Plugin {}

/// `--profile-pipeline=ROW[,N]`: N calls (default 200,000), one at a time, through the pipeline
/// alone on an immediate `StubTransport` (no network, no thread hop), to see what NetKit adds
/// between a caller and its transport. ROW: `bare` (`StubTransport.send` on a built request),
/// `none` (`Provider`, no plugin), `noop` (+ 5 plugins implementing five hooks as no-ops), `empty`
/// (+ 5 plugins implementing nothing), `real` (+ the request tables' 5 real plugins; `real:NAME`, e.g. `real:cache`, that one among 4 no-op ones). One row per process; heap allocations per call come from
/// the benchmark's own counter (`MallocCounter`; heaptrack cannot hook this binary's allocator).
func profilePipeline(_ spec: String) async throws {
    let parts = spec.split(separator: ",")
    let row = parts.first.map(String.init) ?? "none"
    let total = parts.count > 1 ? Int(parts[1]) ?? 200_000 : 200_000
    let transport = StubTransport()
    let operation: @Sendable (Int) async throws -> Void
    switch row {
    case "bare":
        let request = try await Provider<BenchAPI>(transport: transport).buildRequest(.small)
        operation = { _ in _ = try await transport.send(request, progress: nil) }
    default:
        let plugins: [any Plugin] =
            switch row {
            case "noop": (0..<5).map { _ in NoOpPlugin() }
            case "empty": (0..<5).map { _ in EmptyPlugin() }
            case let real where real.hasPrefix("real"): realPlugins(named: real)
            default: []
            }
        let provider = Provider<BenchAPI>(transport: transport, plugins: plugins)
        operation = { _ in _ = try await provider.request(.small) }
    }
    var best = Double.infinity
    var allocations = Double.infinity
    for _ in 0..<3 {
        let run = try await measure(total: total, concurrency: 1, operation)
        best = min(best, run.cpuMicrosPerRequest)
        allocations = min(allocations, run.allocationsPerRequest ?? .infinity)
    }
    print(
        "\(row): \(total) calls, best of 3: \(format(best, decimals: 2)) us CPU/call, "
            + "\(allocations.isFinite ? format(allocations, decimals: 1) : "-") allocations/call")
}
