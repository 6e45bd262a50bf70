import Foundation

/// One measured run: throughput and CPU time per request.
struct Measurement: Sendable {
    var requests: Int
    var seconds: Double
    var cpuSeconds: Double

    var perSecond: Double { Double(requests) / seconds }
    var cpuMicrosPerRequest: Double { cpuSeconds / Double(requests) * 1e6 }
}

/// Runs `operation` `total` times split over `concurrency` workers and measures wall and CPU time.
/// With `executor`, the workers prefer it (the whole loop runs there).
func measure(
    total: Int, concurrency: Int, executor: (any TaskExecutor)? = nil, _ operation: @escaping @Sendable (Int) async throws -> Void
) async throws -> Measurement {
    let cpuBefore = processCPUSeconds()
    let clock = ContinuousClock()
    let start = clock.now
    try await withThrowingTaskGroup(of: Void.self) { group in
        let perWorker = total / concurrency
        for worker in 0..<concurrency {
            group.addTask(executorPreference: executor) {
                for index in 0..<perWorker { try await operation(worker * perWorker + index) }
            }
        }
        try await group.waitForAll()
    }
    let elapsed = clock.now - start
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    return Measurement(requests: (total / concurrency) * concurrency, seconds: seconds, cpuSeconds: processCPUSeconds() - cpuBefore)
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

/// Prints a comparison: each contender's req/s, CPU per request and ratio to the baseline (the first).
func report(_ title: String, _ results: [(String, Measurement)], baseline: String? = nil) {
    let widths = [52, 10, 12, 8]
    print("\n### \(title)")
    print(row(["client", "req/s", "CPU us/req", "ratio"], widths: widths))
    print(row(widths.map { String(repeating: "-", count: $0) }, widths: widths))
    let base = results.first { $0.0 == (baseline ?? results[0].0) }!.1
    for (name, measurement) in results {
        print(
            row(
                [
                    name, format(measurement.perSecond), format(measurement.cpuMicrosPerRequest, decimals: 1),
                    format(measurement.perSecond / base.perSecond, decimals: 2),
                ], widths: widths))
    }
}
