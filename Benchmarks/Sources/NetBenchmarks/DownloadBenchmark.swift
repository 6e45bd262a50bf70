import Foundation
import NetCore
import NetCurl

/// A 256 MiB download to disk through `Provider` + CurlTransport against the curl command line
/// (`curl -s -o`) on the same nginx file, alternating, best of three each.
func downloadBenchmark() async throws {
    guard let webroot = ProcessInfo.processInfo.environment["NETKIT_WEBROOT"] else {
        print("\n### Download to disk: skipped (NETKIT_WEBROOT not set; run scripts/bench)")
        return
    }
    let size = 256 << 20
    let file = URL(fileURLWithPath: webroot).appendingPathComponent("big256.bin")
    if !FileManager.default.fileExists(atPath: file.path) {
        try runTool("/bin/sh", ["-c", "head -c \(size) /dev/urandom > '\(file.path)'"])
    }
    let url = Servers.nginx.appendingPathComponent("big256.bin")
    let provider = Provider<DownloadTarget>(transport: CurlTransport())
    let destination = FileManager.default.temporaryDirectory.appendingPathComponent("netkit-bench-download-\(UUID().uuidString).bin")
    defer { try? FileManager.default.removeItem(at: destination) }
    let target = DownloadTarget(destination: destination)
    var best = (netkit: Double.infinity, curl: Double.infinity)
    let clock = ContinuousClock()
    for _ in 0..<3 {
        try? FileManager.default.removeItem(at: destination)
        var start = clock.now
        _ = try await provider.request(target)
        best.netkit = min(best.netkit, (clock.now - start).seconds)
        try? FileManager.default.removeItem(at: destination)
        start = clock.now
        try runTool("/usr/bin/env", ["curl", "-s", "-o", destination.path, url.absoluteString])
        best.curl = min(best.curl, (clock.now - start).seconds)
    }
    let mebibytes = Double(size) / Double(1 << 20)
    print("\n### Download to disk, 256 MiB over loopback, best of 3 (target: at least 0.95 of curl -o)")
    print("| contender | MiB/s |")
    print("|---|---|")
    print("| Provider + CurlTransport, .download(to:) | \(format(mebibytes / best.netkit)) |")
    print("| curl -s -o (command line) | \(format(mebibytes / best.curl)) |")
    print("NetKit reaches \(format(best.curl / best.netkit, decimals: 2)) of curl -o")
}

/// The 256 MiB file, downloaded to `destination`.
private struct DownloadTarget: TargetType {
    let destination: URL

    var baseURL: URL { Servers.nginx }
    var path: String { "/big256.bin" }
    var method: HTTPMethod { .get }
    var content: RequestContent { .download(to: destination, resumable: false) }
    var timeout: Duration? { .seconds(300) }
}
