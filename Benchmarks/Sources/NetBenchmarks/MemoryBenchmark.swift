import Foundation
import NetCore
import NetCurl

/// Peak RSS of a 512 MiB download to disk and a 512 MiB file upload, each measured in a
/// child process of its own (`--child=download|upload`) so one run does not hide the other.
func memoryBenchmark() async throws {
    let environment = ProcessInfo.processInfo.environment
    guard let webroot = environment["NETKIT_WEBROOT"], environment["NETKIT_SINK_URL"] != nil else {
        print("\n### Memory: skipped (NETKIT_WEBROOT / NETKIT_SINK_URL not set; run scripts/bench)")
        return
    }
    let big = URL(fileURLWithPath: webroot).appendingPathComponent("big.bin")
    if !FileManager.default.fileExists(atPath: big.path) {
        try runTool("/bin/sh", ["-c", "head -c 536870912 /dev/urandom > '\(big.path)'"])
    }
    print("\n### Peak memory, 512 MiB transfers through Provider + CurlTransport (target: under 64 MiB)")
    for child in ["download", "upload"] {
        let output = try runTool(CommandLine.arguments[0], ["--child=\(child)"])
        print(output.trimmingCharacters(in: .whitespacesAndNewlines))
    }
}

/// The child side: one transfer, then its peak RSS.
func memoryChild(_ kind: String) async throws {
    let environment = ProcessInfo.processInfo.environment
    let big = URL(fileURLWithPath: environment["NETKIT_WEBROOT"]!).appendingPathComponent("big.bin")
    let provider = Provider<BigTransfer>(transport: CurlTransport())
    let clock = ContinuousClock()
    let start = clock.now
    let detail: String
    if kind == "download" {
        let destination = FileManager.default.temporaryDirectory.appendingPathComponent("netkit-bench-\(UUID().uuidString).bin")
        defer { try? FileManager.default.removeItem(at: destination) }
        let response = try await provider.request(.download(destination))
        let size = (try FileManager.default.attributesOfItem(atPath: destination.path)[.size] as? NSNumber)?.int64Value ?? 0
        detail = "status \(response.statusCode), \(size >> 20) MiB on disk"
    } else {
        let response = try await provider.request(.upload(big))
        detail = "sink counted \(String(decoding: response.data, as: UTF8.self).prefix(40))…"
    }
    let seconds = (clock.now - start).components.seconds
    print("\(kind): peak RSS \(peakResidentMiB()) MiB, \(seconds) s, \(detail)")
}

enum BigTransfer: TargetType {
    case download(URL)
    case upload(URL)

    var baseURL: URL {
        let environment = ProcessInfo.processInfo.environment
        switch self {
        case .download: return URL(string: environment["NETKIT_NGINX_URL"]!)!
        case .upload: return URL(string: environment["NETKIT_SINK_URL"]!)!
        }
    }
    var path: String { if case .download = self { "/big.bin" } else { "/upload" } }
    var method: HTTPMethod { if case .download = self { .get } else { .post } }
    var content: RequestContent {
        switch self {
        case .download(let destination): .download(to: destination, resumable: false)
        case .upload(let file): .file(file, contentType: "application/octet-stream")
        }
    }
    var timeout: Duration? { .seconds(300) }
}

/// VmHWM (peak resident set) of this process, in MiB.
func peakResidentMiB() -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
        let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
    else { return -1 }
    let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    return kilobytes / 1024
}

@discardableResult
func runTool(_ path: String, _ arguments: [String]) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: output, as: UTF8.self)
}
