import NetToolbox
import Foundation
import NetCore
import NetCurl
import Testing
import NetTestSupport

@Suite("CurlTransport requests and responses")
struct CurlExchangeTests {
    @Test(.liveServers) func getsASmallBodyWithHeadersStatusAndMetrics() async throws {
        let nginx = try TestServers.require("NETKIT_NGINX_URL")
        let response = try await CurlTransport().send(.to(nginx.appendingPathComponent("small.json")))
        #expect(response.statusCode == 200)
        #expect(response.data.count == 95)
        #expect(response.headers["content-type"] == "application/json")
        #expect(response.source == .network)
        let metrics = try #require(response.metrics)
        #expect(metrics.httpVersion == "HTTP/1.1")
        #expect(metrics.bytesReceived == 95)
        #expect(metrics.duration > .zero)
    }

    @Test(.liveServers) func nonSuccessStatusesAreReturnedWithTheirBody() async throws {
        let fault = try TestServers.require("NETKIT_FAULT_URL")
        let response = try await CurlTransport().send(.to(fault.appendingPathComponent("status/503")))
        #expect(response.statusCode == 503)
        #expect(response.string()?.contains("503") == true)
    }

    @Test(.liveServers) func postsAnInMemoryBodyWithContentLengthAndItsContentType() async throws {
        let fault = try TestServers.require("NETKIT_FAULT_URL")
        let body = Data(#"{"hello":"world"}"#.utf8)
        let request = Request.to(
            fault.appendingPathComponent("echo"), method: .post,
            headers: ["Content-Type": "application/json", "X-Custom": "1"], body: .data(body))
        let echo = try await CurlTransport().send(request).json() as? [String: Any]
        let headers = echo?["headers"] as? [String: String] ?? [:]
        #expect(echo?["method"] as? String == "POST")
        #expect(echo?["body_length"] as? Int == body.count)
        #expect(headers.first { $0.key.lowercased() == "content-length" }?.value == "\(body.count)")
        #expect(headers.first { $0.key.lowercased() == "content-type" }?.value == "application/json")
        #expect(headers.first { $0.key.lowercased() == "x-custom" }?.value == "1")
        #expect(headers.keys.contains { $0.lowercased() == "expect" } == false)
    }

    @Test(.liveServers, arguments: ["PUT", "PATCH", "DELETE"])
    func otherMethodsAreSentAsIs(method: String) async throws {
        let fault = try TestServers.require("NETKIT_FAULT_URL")
        let body: RequestBody = method == "DELETE" ? .none : .data(Data("abc".utf8))
        let request = Request.to(fault.appendingPathComponent("echo"), method: HTTPMethod(rawValue: method), body: body)
        let echo = try await CurlTransport().send(request).json() as? [String: Any]
        #expect(echo?["method"] as? String == method)
        #expect(echo?["body_length"] as? Int == (method == "DELETE" ? 0 : 3))
    }

    @Test(.liveServers) func streamsAMultipartBodyWithFileParts() async throws {
        let httpbin = try TestServers.require("NETKIT_HTTPBIN_URL")
        let folder = ScratchFolders.make("netcurl")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("notes.txt")
        try Data("file contents\n".utf8).write(to: file)
        struct Upload: TargetType {
            let baseURL: URL
            let file: URL
            var path: String { "/post" }
            var method: HTTPMethod { .post }
            var content: RequestContent {
                .multipart([MultipartPart(name: "field", value: "value"), MultipartPart(name: "upload", fileURL: file)])
            }
        }
        let provider = Provider<Upload>(transport: CurlTransport())
        let response = try await provider.request(Upload(baseURL: httpbin, file: file))
        let json = try response.json() as? [String: Any]
        #expect((json?["form"] as? [String: Any])?["field"] as? String == "value")
        #expect((json?["files"] as? [String: Any])?["upload"] as? String == "file contents\n")
    }

    @Test(.liveServers) func decompressesGzipResponses() async throws {
        let httpbin = try TestServers.require("NETKIT_HTTPBIN_URL")
        let response = try await CurlTransport().send(.to(httpbin.appendingPathComponent("gzip")))
        #expect(response.statusCode == 200)
        let json = try response.json() as? [String: Any]
        #expect(json?["gzipped"] as? Bool == true)
    }

    @Test(.liveServers) func followsRedirectsWithoutSendingAuthorizationToAnotherHost() async throws {
        let fault = try TestServers.require("NETKIT_FAULT_URL")
        let request = Request.to(
            fault.appendingPathComponent("redirect-other-host"),
            headers: ["Authorization": "Bearer secret", "X-Kept": "yes"])
        let response = try await CurlTransport().send(request)
        #expect(response.statusCode == 200)
        let headers = (try response.json() as? [String: Any])?["headers"] as? [String: String] ?? [:]
        #expect(headers.keys.contains { $0.lowercased() == "authorization" } == false)
        #expect(headers.first { $0.key.lowercased() == "x-kept" }?.value == "yes")
    }

    @Test(.liveServers) func aRedirectPolicyThatDoesNotFollowReturnsThe3xx() async throws {
        let fault = try TestServers.require("NETKIT_FAULT_URL")
        let transport = CurlTransport(configuration: .init(redirectPolicy: .none))
        let response = try await transport.send(.to(fault.appendingPathComponent("redirect-loop")))
        #expect(response.statusCode == 302)
    }

    @Test(.liveServers) func reportsUploadAndDownloadProgressUpToTheTotal() async throws {
        let fault = try TestServers.require("NETKIT_FAULT_URL")
        let events = Locked<[TransferProgress]>([])
        let body = Data(repeating: 7, count: 3 << 20)
        let request = Request.to(fault.appendingPathComponent("echo"), method: .post, body: .data(body))
        _ = try await CurlTransport().send(request) { progress in events.withLock { $0.append(progress) } }
        let uploads = events.withLock { $0.filter { $0.direction == .upload } }
        #expect(uploads.last?.completedBytes == Int64(body.count))
        #expect(uploads.last?.totalBytes == Int64(body.count))
        let downloads = events.withLock { $0.filter { $0.direction == .download } }
        #expect(downloads.last.map { $0.completedBytes > 0 } == true)
    }

    @Test(.liveServers) func manyConcurrentRequestsAllComplete() async throws {
        let nginx = try TestServers.require("NETKIT_NGINX_URL")
        let transport = CurlTransport()
        let url = nginx.appendingPathComponent("small.json")
        let sizes = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<300 { group.addTask { try await transport.send(.to(url)).data.count } }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(sizes.count == 300)
        #expect(sizes.allSatisfy { $0 == 95 })
    }

    @Test(.liveServers) func cancellingTheTaskMidTransferEndsItWithCancelled() async throws {
        let fault = try TestServers.require("NETKIT_FAULT_URL")
        let transport = CurlTransport()
        // 100 bytes, one every 100 ms: the first progress event proves the transfer is running.
        let url = URL(string: fault.absoluteString + "/drip?count=100&interval_ms=100")!
        let (firstByte, signal) = AsyncStream<Void>.makeStream()
        let task = Task {
            try await transport.send(.to(url, timeout: .seconds(60))) { _ in signal.yield() }
        }
        for await _ in firstByte { break }
        task.cancel()
        do {
            let response = try await task.value
            Issue.record("expected cancellation, got \(response)")
        } catch {
            #expect((error as? NetworkError)?.isCancellation == true, "got \(error)")
        }
        // The transport keeps working after a cancellation.
        let response = try await transport.send(.to(fault.appendingPathComponent("healthz")))
        #expect(response.statusCode == 200)
    }

    @Test(.liveServers) func aSubSecondTimeoutIsHonoured() async throws {
        let fault = try TestServers.require("NETKIT_FAULT_URL")
        // The body takes about 0.8 s (8 bytes, one every 100 ms): a 400 ms deadline must cut it,
        // where a timeout rounded up to whole seconds would let it finish.
        let url = URL(string: fault.absoluteString + "/drip?count=8&interval_ms=100")!
        let error = await networkError { try await CurlTransport().send(.to(url, timeout: .milliseconds(400))) }
        guard case .timedOut? = error else {
            Issue.record("expected timedOut, got \(String(describing: error))")
            return
        }
        // And the same body completes when the deadline allows it.
        let response = try await CurlTransport().send(.to(url, timeout: .seconds(10)))
        #expect(response.data.count == 8)
    }
}
