import Foundation
import NetCore
import Testing
import NetTestSupport

/// `Provider()` with no transport, against real servers.
@Suite(.liveServers)
struct DefaultTransportIntegrationTests {
    @Test("The default transport sends NetKit's User-Agent and an Accept-Encoding it can decode; a target's header wins")
    func defaultHeaders() async throws {
        _ = try TestServers.require("NETKIT_FAULT_URL")
        let provider = Provider<HostileTarget>()
        let echoed = try await provider.request(HostileTarget(path: "/headers", validation: .successCodes))
            .decode([String: String].self, atKeyPath: "headers")
        let headers = Dictionary(uniqueKeysWithValues: echoed.map { ($0.key.lowercased(), $0.value) })
        #expect(headers["user-agent"] == NetKitInfo.userAgent)
        #expect(headers["accept-encoding"]?.contains("gzip") == true, "\(headers)")
        let own = try await provider.request(HostileTarget(path: "/headers", headers: ["User-Agent": "MyApp/1.0"], validation: .successCodes))
            .decode([String: String].self, atKeyPath: "headers")
        #expect(own.first { $0.key.lowercased() == "user-agent" }?.value == "MyApp/1.0")
    }

    @Test("URLSessionTransport reports download and upload progress, ending at completed == total")
    func urlSessionProgress() async throws {
        _ = try TestServers.require("NETKIT_FAULT_URL")
        let provider = Provider<HostileTarget>(transport: URLSessionTransport())
        let size = 3 << 20
        let download = provider.transfer(HostileTarget(path: "/range/\(size)", validation: .successCodes))
        var downloads: [TransferProgress] = []
        for await event in download.events { if case .progress(let p) = event, p.direction == .download { downloads.append(p) } }
        _ = try await download.response()
        #expect(!downloads.isEmpty, "download progress was reported")
        #expect(downloads.last?.completedBytes == Int64(size))
        #expect(downloads.last?.totalBytes == Int64(size))

        let body = Data(repeating: 1, count: 2 << 20)
        let upload = provider.transfer(
            HostileTarget(
                path: "/echo", method: .post, content: .data(body, contentType: "application/octet-stream"),
                validation: .successCodes))
        var uploads: [TransferProgress] = []
        for await event in upload.events { if case .progress(let p) = event, p.direction == .upload { uploads.append(p) } }
        _ = try await upload.response()
        #expect(uploads.last?.completedBytes == Int64(body.count))
        #expect(uploads.last?.totalBytes == Int64(body.count))
    }
}
