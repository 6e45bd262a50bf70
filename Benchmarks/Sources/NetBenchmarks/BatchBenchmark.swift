import Foundation
import NetBatch
import NetCore
import NetCurl

/// BatchManager of 1,000 requests at maxConcurrent 8 versus a raw TaskGroup limited to 8
/// sending the same requests through the same provider and transport.
func batchBenchmark() async throws {
    let provider = Provider<BenchAPI>(transport: CurlTransport())
    let targets = Array(repeating: BenchAPI.small, count: 1_000)
    let manager = BatchManager(provider: provider, configuration: BatchConfiguration(maxConcurrent: 8))
    let results = try await compare(
        [
            (
                "raw TaskGroup, 8 at a time",
                { _ in
                    await withTaskGroup(of: Void.self) { group in
                        var next = 0
                        while next < 8 { let target = targets[next]; group.addTask { _ = try? await provider.request(target) }; next += 1 }
                        while await group.next() != nil, next < targets.count {
                            let target = targets[next]
                            group.addTask { _ = try? await provider.request(target) }
                            next += 1
                        }
                    }
                }
            ),
            (
                "BatchManager, maxConcurrent 8",
                { _ in
                    let result = await manager.run(targets)
                    precondition(result.allSucceeded, "batch failures: \(result.failures.prefix(3))")
                }
            ),
        ], total: 5, concurrency: 1)
    let widths = [44, 12, 8]
    print("\n### Batch of 1,000 requests, CurlTransport")
    print(row(["client", "requests/s", "ratio"], widths: widths))
    print(row(widths.map { String(repeating: "-", count: $0) }, widths: widths))
    let base = results[0].1.perSecond
    for (name, measurement) in results {
        print(row([name, format(measurement.perSecond * 1_000), format(measurement.perSecond / base, decimals: 2)], widths: widths))
    }
}
