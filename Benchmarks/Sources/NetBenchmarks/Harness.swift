import Foundation
import MallocCounter

/// One measured run: throughput, CPU time, latency and heap allocations per request.
struct Measurement: Sendable {
    var requests: Int
    var seconds: Double
    var cpuSeconds: Double
    /// Latency percentiles of the run's requests, in seconds (nil when not measured, e.g. the C program).
    var latency: Latency? = nil
    /// Heap allocations of the whole process during the run (nil when not counted).
    var allocations: UInt64? = nil

    var perSecond: Double { Double(requests) / seconds }
    var cpuMicrosPerRequest: Double { cpuSeconds / Double(requests) * 1e6 }
    var allocationsPerRequest: Double? { allocations.map { Double($0) / Double(requests) } }

    /// The 50th and 99th percentiles of a run's request durations.
    struct Latency: Sendable {
        var p50: Double
        var p99: Double

        init(_ durations: [Double]) {
            let sorted = durations.sorted()
            func percentile(_ p: Double) -> Double {
                sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int((Double(sorted.count) * p).rounded(.up)) - 1)]
            }
            p50 = percentile(0.50)
            p99 = percentile(0.99)
        }
    }
}

/// Runs `operation` `total` times split over `concurrency` workers and measures wall and CPU time.
/// With `executor`, the workers prefer it (the whole loop runs there).
func measure(
    total: Int, concurrency: Int, executor: (any TaskExecutor)? = nil, _ operation: @escaping @Sendable (Int) async throws -> Void
) async throws -> Measurement {
    let allocationsBefore = netkit_bench_allocations()
    let cpuBefore = processCPUSeconds()
    let clock = ContinuousClock()
    let start = clock.now
    let durations = try await withThrowingTaskGroup(of: [Double].self) { group in
        let perWorker = total / concurrency
        for worker in 0..<concurrency {
            group.addTask(executorPreference: executor) {
                var durations: [Double] = []
                durations.reserveCapacity(perWorker)
                for index in 0..<perWorker {
                    let began = clock.now
                    try await operation(worker * perWorker + index)
                    durations.append((clock.now - began).seconds)
                }
                return durations
            }
        }
        var all: [Double] = []
        for try await durations in group { all += durations }
        return all
    }
    let elapsed = clock.now - start
    let cpu = processCPUSeconds() - cpuBefore
    let allocations = netkit_bench_allocations() - allocationsBefore
    return Measurement(
        requests: (total / concurrency) * concurrency, seconds: elapsed.seconds, cpuSeconds: cpu, latency: Measurement.Latency(durations),
        allocations: allocationsBefore == 0 ? nil : allocations)
}

extension Duration {
    /// The duration in seconds.
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}

/// Measures each contender `rounds` times, interleaved so drift affects all alike, and keeps the best run.
/// Contenders named in `executors` run their workers on that executor.
func compare(
    _ contenders: [(String, @Sendable (Int) async throws -> Void)], total: Int, concurrency: Int, rounds: Int = 3,
    executors: [String: any TaskExecutor] = [:]
) async throws -> [(String, Measurement)] {
    var best: [String: Measurement] = [:]
    // Warm-up: connections, caches, lazy initialisation.
    for (name, operation) in contenders {
        _ = try await measure(total: max(concurrency, total / 20), concurrency: concurrency, executor: executors[name], operation)
    }
    for _ in 0..<rounds {
        for (name, operation) in contenders {
            let run = try await measure(total: total, concurrency: concurrency, executor: executors[name], operation)
            if let previous = best[name], previous.perSecond >= run.perSecond { continue }
            best[name] = run
        }
    }
    return contenders.map { ($0.0, best[$0.0]!) }
}

/// User plus system CPU time of this process.
func processCPUSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
    return seconds(usage.ru_utime) + seconds(usage.ru_stime)
}

/// Prints a table row.
func row(_ columns: [String], widths: [Int]) -> String {
    zip(columns, widths).map { column, width in
        column.count >= width ? column : column + String(repeating: " ", count: width - column.count)
    }.joined(separator: " | ")
}

func format(_ value: Double, decimals: Int = 0) -> String {
    String(format: "%.\(decimals)f", value)
}

/// Prints a comparison: each contender's req/s, CPU per request and ratio to the baseline (the
/// first), then its latency percentiles and heap allocations per request (the whole process's:
/// for a client, what it and the libraries under it allocate).
func report(_ title: String, _ results: [(String, Measurement)], baseline: String? = nil) {
    let widths = [52, 10, 12, 8, 9, 9, 11]
    print("\n### \(title)")
    print(row(["client", "req/s", "CPU us/req", "ratio", "p50 ms", "p99 ms", "mallocs/req"], widths: widths))
    print(row(widths.map { String(repeating: "-", count: $0) }, widths: widths))
    let base = results.first { $0.0 == (baseline ?? results[0].0) }!.1
    for (name, measurement) in results {
        print(
            row(
                [
                    name, format(measurement.perSecond), format(measurement.cpuMicrosPerRequest, decimals: 1),
                    format(measurement.perSecond / base.perSecond, decimals: 2),
                    measurement.latency.map { format($0.p50 * 1e3, decimals: 3) } ?? "-",
                    measurement.latency.map { format($0.p99 * 1e3, decimals: 3) } ?? "-",
                    measurement.allocationsPerRequest.map { format($0, decimals: 1) } ?? "-",
                ], widths: widths))
    }
}
