import Foundation

// Prints every NetKit benchmark as Markdown tables. Run with `scripts/bench` (release build,
// local nginx started and stopped by the script). Ratios compare contenders measured in this
// same run, interleaved, best of three rounds.
let arguments = CommandLine.arguments
let quick = arguments.contains("--quick")
let requests = quick ? 1_000 : 5_000

/// The value of `--name=VALUE`, when given.
func option(_ name: String) -> String? {
    arguments.first { $0.hasPrefix("--\(name)=") }.map { String($0.dropFirst(name.count + 3)) }
}

// Single-purpose modes (a memory child process, profiling loops): run one thing and exit.
let modes: [(String, (String) async throws -> Void)] = [
    ("child", memoryChild), ("profile-loop", profileLoop), ("profile-cache", profileCacheHits),
    ("profile-handoff", profileHandoff), ("profile-pipeline", profilePipeline), ("profile-observers", profileObservers),
    ("soak-websocket", webSocketSoak), ("websocket-peer", webSocketPeerBenchmark), ("websocket-child", webSocketChild),
]
for (name, run) in modes {
    guard let value = option(name) else { continue }
    try await run(value)
    exit(0)
}
print("# NetKit benchmarks")
print("date: \(Date()), cores: \(ProcessInfo.processInfo.activeProcessorCount), requests per run: \(requests)")
let only = option("only")
func wants(_ name: String) -> Bool { only == nil || only == name }
if wants("urlsession") { try await urlSessionBenchmark(total: requests) }
if wants("curl") { try await curlBenchmark(total: requests) }
if wants("cache") { try await cacheBenchmark(total: requests) }
if wants("plugins") { try await pluginBenchmark(total: requests) }
if wants("observers") { try await observerBenchmark(total: requests) }
if wants("batch") { try await batchBenchmark() }
if wants("memory") { try await memoryBenchmark() }
if wants("download") { try await downloadBenchmark() }
if wants("websocket") { try await webSocketBenchmark(total: requests) }
