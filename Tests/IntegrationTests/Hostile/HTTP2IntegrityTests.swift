import Foundation
import NetCore
import NetCurl
import NetPlugins
import Testing
import NetTestSupport

/// A response is complete only when its HTTP/2 framing says so, and a server that breaks the
/// protocol gets `.invalidResponse`, which is never retried.
@Suite(.liveServers, .serialized)
struct HTTP2IntegrityTests {
    enum Expected: Sendable {
        /// `truncated`, or a lost connection when the server's close arrives as a reset.
        case truncated, cut, invalid, timedOut

        func matches(_ error: NetworkError?) -> Bool {
            switch (self, error) {
            case (.truncated, .truncatedResponse?), (.cut, .truncatedResponse?), (.cut, .connectionLost?), (.invalid, .invalidResponse?),
                (.timedOut, .timedOut?):
                true
            default: false
            }
        }
    }

    static let cases: [(path: String, expected: Expected)] = [
        ("/rst-after-data?code=2", .truncated),
        ("/rst-after-data-cl", .truncated),
        ("/goaway-after-data", .truncated),
        ("/close-after-data", .cut),
        ("/two-content-lengths", .invalid),
        ("/duplicate-status", .invalid),
        ("/missing-status", .invalid),
        ("/non-numeric-status", .invalid),
        ("/uppercase-header", .invalid),
        ("/hpack-bomb", .invalid),
        ("/endless-interim", .timedOut),
    ]

    @Test("A cut or malformed HTTP/2 response is an error of the right kind, and a violation is sent once", arguments: cases)
    func brokenResponses(path: String, expected: Expected) async throws {
        let (base, pinning) = try HTTP2Fault.server()
        let sent = AttemptCounter()
        let provider = Provider<HostileTarget>(transport: CurlTransport(), plugins: [pinning, RetryPlugin(maxRetries: 2), sent])
        let result = await outcome { try await provider.request(HTTP2Fault.target(path, base: base, timeout: .seconds(2))) }
        #expect(expected.matches(result.failure), "\(path): \(result)")
        if expected == .invalid { #expect(sent.attempts == 1, "a protocol violation was sent \(sent.attempts) times") }
    }

    @Test("Interim 103 responses are skipped: the final response is the answer")
    func earlyHints() async throws {
        let (base, pinning) = try HTTP2Fault.server()
        let provider = Provider<HostileTarget>(transport: CurlTransport(), plugins: [pinning])
        let response = try await provider.request(HostileTarget(path: "/early-hints", base: base))
        #expect(response.statusCode == 200)
        #expect(response.string() == #"{"ok":true}"#)
    }

    @Test("A download cut by a reset or a closed connection leaves nothing at its destination")
    func cutDownload() async throws {
        let (base, pinning) = try HTTP2Fault.server()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("netkit-h2-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let provider = Provider<HostileTarget>(transport: CurlTransport(), plugins: [pinning], configuration: .init(maxAttempts: 1))
        for path in ["/rst-after-data?code=8", "/close-after-data", "/goaway-after-data"] {
            let destination = folder.appendingPathComponent("file.bin")
            let result = await outcome {
                var target = HTTP2Fault.target(path, base: base)
                target.content = .withQuery(.download(to: destination, resumable: false), target.query)
                return try await provider.request(target)
            }
            #expect(result.failure != nil, "\(path): \(result)")
            #expect(!FileManager.default.fileExists(atPath: destination.path), "\(path) left a partial file")
        }
    }

    @Test("A stream whose HTTP/2 stream is cut ends by throwing")
    func cutStream() async throws {
        let (base, pinning) = try HTTP2Fault.server()
        let provider = Provider<HostileTarget>(transport: CurlTransport(), plugins: [pinning], configuration: .init(maxAttempts: 1))
        for path in ["/rst-after-data?code=2", "/close-after-data"] {
            let stream = provider.stream(HTTP2Fault.target(path, base: base))
            var received = 0
            do {
                for try await chunk in stream { received += chunk.count }
                Issue.record("\(path): the stream ended as if complete after \(received) bytes")
            } catch {
                #expect(error is NetworkError, "\(path): \(error)")
            }
        }
    }

    @Test("libcurl 7.88 limit: a reset with NO_ERROR, an oversized DATA frame or DATA on stream 0 pass as complete")
    func libcurlLimits() async throws {
        let (base, pinning) = try HTTP2Fault.server()
        let provider = Provider<HostileTarget>(transport: CurlTransport(), plugins: [pinning], configuration: .init(maxAttempts: 1))
        for path in ["/rst-after-data", "/oversized-data", "/data-on-stream-0"] {
            let result = await outcome { try await provider.request(HostileTarget(path: path, base: base, timeout: .seconds(2))) }
            // libcurl 7.88 reports these streams closed cleanly and gives no way to tell (see the
            // README's security model); newer libcurl fails them.
            withKnownIssue("libcurl 7.88 reports \(path) as a complete response", isIntermittent: true) {
                #expect(result.failure != nil, "\(path): \(result)")
            }
        }
    }
}

extension HTTP2Fault {
    /// A target for `pathAndQuery` ("/path?name=value") on the HTTP/2 fault server at `base`.
    static func target(_ pathAndQuery: String, base: URL, timeout: Duration = .seconds(5)) -> HostileTarget {
        let parts = pathAndQuery.split(separator: "?", maxSplits: 1)
        let query =
            parts.count > 1
            ? parts[1].split(separator: "&").map { pair -> (String, ParameterValue) in
                let field = pair.split(separator: "=", maxSplits: 1)
                return (String(field[0]), .string(field.count > 1 ? String(field[1]) : ""))
            }
            : []
        return HostileTarget(path: String(parts[0]), content: query.isEmpty ? .plain : .query(Parameters(query)), base: base, timeout: timeout)
    }
}

extension HostileTarget {
    /// The URL query this target's content carries.
    var query: Parameters {
        if case .query(let parameters) = content { return parameters }
        return Parameters()
    }
}
