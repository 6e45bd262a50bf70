import Foundation
import NetCore
import NetCurl

/// Memory over long WebSocket runs on the curl transport (`scripts/soak-websocket`): a ping flood
/// from the fault server for `seconds`, then 1 GiB of 64 KiB binary messages from the echo
/// server. Prints the resident set before, sampled during, and the peak of each phase.
func webSocketSoak(_ value: String) async throws {
    let environment = ProcessInfo.processInfo.environment
    guard let echo = environment["NETKIT_WS_URL"].flatMap(URL.init(string:)),
        let fault = environment["NETKIT_WS_FAULT_URL"].flatMap(URL.init(string:))
    else {
        fatalError("NETKIT_WS_URL and NETKIT_WS_FAULT_URL are not set: run scripts/soak-websocket")
    }
    let seconds = Int(value) ?? 60
    let provider = Provider<SoakSocket>(transport: CurlTransport())
    print("# WebSocket soak (curl transport), \(Date())")
    print("| phase | work | RSS before (MiB) | RSS samples during (MiB) | RSS after (MiB) | peak RSS (MiB) | time (s) |")
    print("|---|---|---|---|---|---|---|")

    // 1. Ping flood: the fault server pings as fast as the client answers.
    var phase = SoakPhase()
    let flood = try await provider.webSocket(SoakSocket(base: fault, path: "ping-flood-for", query: "seconds=\(seconds)"))
    var done = ""
    for try await message in flood.messages {
        if case .text(let text) = message { done = text }
        break
    }
    await flood.close()
    let pings = done.split(separator: " ").last.map(String.init) ?? "?"
    print(await phase.finish(work: "\(pings) pings answered in \(seconds) s"))

    // 2. 1 GiB stream: 16384 binary messages of 64 KiB from the echo server.
    phase = SoakPhase()
    let count = 16_384
    let stream = try await provider.webSocket(SoakSocket(base: echo, path: "burst", query: "count=\(count)&size=65536"))
    var received = 0
    var bytes = 0
    for try await message in stream.messages {
        received += 1
        bytes += message.byteCount
    }
    guard received == count else { fatalError("received \(received) messages, not \(count)") }
    print(await phase.finish(work: "\(bytes >> 20) MiB in \(received) messages"))
}

/// One soak phase: the resident set at its start, sampled every 5 s, and its peak.
struct SoakPhase {
    let start = ContinuousClock.now
    let before: Int
    let sampler: Task<[Int], Never>

    init() {
        resetPeakResident()
        before = residentMiB()
        sampler = Task {
            var samples: [Int] = []
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(5))
                samples.append(residentMiB())
            }
            return samples
        }
    }

    func finish(work: String) async -> String {
        sampler.cancel()
        let samples = await sampler.value
        let elapsed = (ContinuousClock.now - start).seconds
        let shown = samples.count > 14 ? Array(samples.prefix(7)) + Array(samples.suffix(7)) : samples
        return "| \(work.contains("pings") ? "ping flood" : "1 GiB stream") | \(work) | \(before) | "
            + "\(shown.map(String.init).joined(separator: " ")) | \(residentMiB()) | \(peakResidentMiB()) | "
            + "\(format(elapsed, decimals: 1)) |"
    }
}

/// VmRSS (current resident set) of this process, in MiB.
func residentMiB() -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
        let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
    else { return -1 }
    return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) / 1024
}

/// Resets VmHWM to the current resident set (Linux: `5` written to `/proc/self/clear_refs`).
func resetPeakResident() {
    try? Data("5".utf8).write(to: URL(fileURLWithPath: "/proc/self/clear_refs"))
}

/// A soak endpoint with its query.
struct SoakSocket: TargetType {
    var base: URL
    var path: String
    var query: String
    var baseURL: URL { base }
    var method: HTTPMethod { .get }
    var content: RequestContent {
        .query(
            Parameters(
                query.split(separator: "&").map { pair in
                    let parts = pair.split(separator: "=", maxSplits: 1)
                    return (String(parts[0]), .string(parts.count > 1 ? String(parts[1]) : ""))
                }))
    }
    var timeout: Duration? { .seconds(30) }
}
