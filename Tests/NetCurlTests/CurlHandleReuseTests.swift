import Foundation
@testable import NetBase
@testable import NetCore
@testable import NetCurl
import NetTestSupport
import Testing

/// A pooled easy handle keeps its options between requests: nothing one request set may reach
/// the next one on the same handle.
@Suite("Easy handles reused across different requests", .timeLimit(.minutes(1)))
struct CurlHandleReuseTests {
    /// The fault server's `/echo` answer: method, headers and body length as it saw them.
    struct Echo: Decodable {
        var method: String
        var headers: [String: String]
        var body_length: Int
    }

    @Test(.liveServers) func eachRequestOnAReusedHandleIsSentAsItsOwn() async throws {
        let fault = try TestServers.require("NETKIT_FAULT_URL")
        // One loop, sequential calls: the loop hands the same pooled handle to each request.
        let transport = CurlTransport(configuration: .init(eventLoops: 1))
        let echo = fault.appendingPathComponent("echo")
        func send(_ method: HTTPMethod, headers: HTTPHeaders = [:], body: RequestBody = .none) async throws -> Echo {
            let response = try await transport.send(.to(echo, method: method, headers: headers, body: body))
            #expect(response.statusCode == 200)
            return try JSONDecoder().decode(Echo.self, from: response.data)
        }
        let head = try await transport.send(.to(echo, method: .head))
        #expect(head.statusCode == 200 && head.data.isEmpty)
        var seen = try await send(.get)
        #expect(seen.method == "GET" && seen.body_length == 0)
        seen = try await send(.post, headers: ["X-Once": "1"], body: .data(Data("hello".utf8)))
        #expect(seen.method == "POST" && seen.body_length == 5 && seen.headers["X-Once"] == "1")
        seen = try await send(.get)
        #expect(seen.method == "GET" && seen.body_length == 0)
        #expect(seen.headers["X-Once"] == nil, "a header of the previous request: \(seen.headers)")
        seen = try await send(.delete)
        #expect(seen.method == "DELETE")
        seen = try await send(.put, body: .data(Data("abc".utf8)))
        #expect(seen.method == "PUT" && seen.body_length == 3)
        _ = try await transport.send(.to(echo, method: .head))
        seen = try await send(.get)
        #expect(seen.method == "GET")

        // A resumable download asks for a range and no encoding; the next request asks for neither.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("netkit-reuse-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let destination = DownloadDestination(url: folder.appendingPathComponent("part.bin"), resumable: true)
        try Data(count: 10).write(to: destination.partialFileURL)
        let resumed = try await transport.send(.to(fault.appendingPathComponent("range/100"), download: destination))
        #expect(resumed.statusCode == 206)
        let whole = try await transport.send(.to(fault.appendingPathComponent("range/100")))
        #expect(whole.statusCode == 200)
        #expect(whole.data == rangeBytes(count: 100))
    }
}
