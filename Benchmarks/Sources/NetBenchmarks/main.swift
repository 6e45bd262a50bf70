import Foundation

// Prints every NetKit benchmark as Markdown tables. Run with `scripts/bench` (release build,
// local nginx started and stopped by the script). Ratios compare contenders measured in this
// same run, interleaved, best of three rounds.
let arguments = CommandLine.arguments
let quick = arguments.contains("--quick")
let requests = quick ? 1_000 : 5_000

if let child = arguments.first(where: { $0.hasPrefix("--child=") }) {
    try await memoryChild(String(child.dropFirst(8)))
    exit(0)
}
if let spec = arguments.first(where: { $0.hasPrefix("--profile-loop=") }) {
    try await profileLoop(String(spec.dropFirst(15)))
    exit(0)
}
if let spec = arguments.first(where: { $0.hasPrefix("--profile-cache=") }) {
    try await profileCacheHits(String(spec.dropFirst(16)))
    exit(0)
}
if let spec = arguments.first(where: { $0.hasPrefix("--profile-handoff=") }) {
    try await profileHandoff(String(spec.dropFirst(18)))
    exit(0)
}
print("# NetKit benchmarks")
print("date: \(Date()), cores: \(ProcessInfo.processInfo.activeProcessorCount), requests per run: \(requests)")
let only = arguments.first { $0.hasPrefix("--only=") }.map { String($0.dropFirst(7)) }
func wants(_ name: String) -> Bool { only == nil || only == name }
if wants("urlsession") { try await urlSessionBenchmark(total: requests) }
if wants("curl") { try await curlBenchmark(total: requests) }
if wants("cache") { try await cacheBenchmark(total: requests) }
if wants("plugins") { try await pluginBenchmark(total: requests) }
if wants("batch") { try await batchBenchmark() }
if wants("memory") { try await memoryBenchmark() }
if wants("download") { try await downloadBenchmark() }
