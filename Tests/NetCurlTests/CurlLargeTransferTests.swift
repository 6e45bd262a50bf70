import Foundation
import NetTestSupport
import NetCore
import NetCurl
import Testing

@Suite("CurlTransport streams large bodies")
struct CurlLargeTransferTests {
    private let size = 64 << 20

    @Test(.liveServers) func a64MiBDownloadToDiskHasTheSourceHash() async throws {
        let fault = try TestServers.require("NETKIT_FAULT_URL")
        let folder = ScratchFolders.make("netcurl")
        defer { try? FileManager.default.removeItem(at: folder) }
        let destination = folder.appendingPathComponent("large.bin")
        let response = try await CurlTransport().send(
            .to(
                fault.appendingPathComponent("range/\(size)"),
                download: DownloadDestination(url: destination)))
        #expect(response.statusCode == 200)
        #expect(response.metrics?.bytesReceived == Int64(size))
        let source = folder.appendingPathComponent("source.bin")
        try rangeBytes(count: size).write(to: source)
        #expect(try sha256Hex(ofFile: destination) == sha256Hex(ofFile: source))
    }

    @Test(.liveServers) func a64MiBFileUploadReachesTheSinkIntact() async throws {
        let sink = try TestServers.require("NETKIT_SINK_URL")
        let folder = ScratchFolders.make("netcurl")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("upload.bin")
        try rangeBytes(count: size, from: 17).write(to: file)
        let request = Request.to(
            sink.appendingPathComponent("upload"), method: .put, headers: ["Content-Type": "application/octet-stream"],
            body: .file(file), timeout: .seconds(120))
        let response = try await CurlTransport().send(request)
        #expect(response.statusCode == 200)
        let json = try response.json() as? [String: Any]
        #expect(json?["bytes"] as? Int == size)
        #expect(json?["sha256"] as? String == (try sha256Hex(ofFile: file)))
        #expect(response.metrics?.bytesSent == Int64(size))
    }
}
