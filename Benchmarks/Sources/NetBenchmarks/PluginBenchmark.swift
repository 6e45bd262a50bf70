import Foundation
import NetCore
import NetCurl
import NetPlugins

/// LoggerPlugin (default mode, output discarded) + CapturePlugin over CurlTransport at
/// 8 concurrent, against the same provider without them.
func pluginBenchmark(total: Int) async throws {
    let transport = CurlTransport()
    let bare = Provider<BenchAPI>(transport: transport)
    let observed = Provider<BenchAPI>(
        transport: transport,
        plugins: [
            LoggerPlugin(output: { _ in }),
            CapturePlugin(),
        ])
    let results = try await compare(
        [
            ("Provider + CurlTransport", { _ in _ = try await bare.request(.small, as: SmallDocument.self) }),
            ("  + LoggerPlugin + CapturePlugin", { _ in _ = try await observed.request(.small, as: SmallDocument.self) }),
        ], total: total * 2, concurrency: 8, rounds: 5)  // a small difference: more rounds against noise
    report("Logger + Capture overhead, CurlTransport, 8 concurrent", results)
    print("throughput kept with logger + capture: \(format(results[1].1.perSecond / results[0].1.perSecond * 100, decimals: 1))% (target: at least 95%)")
}
