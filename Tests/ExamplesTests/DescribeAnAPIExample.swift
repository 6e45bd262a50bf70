// Mirrors the README section "Describe an API"; keep them in sync.
import Foundation
import NetCore
import Testing

// README code, verbatim.
enum HTTPBin: TargetType {
    case get(Parameters)
    case post(Payload)
    case status(Int)
    case bytes(Int, URL)

    var baseURL: URL { URL(string: "https://httpbin.org")! }
    var path: String {
        switch self {
        case .get: "/get"
        case .post: "/post"
        case .status(let code): "/status/\(code)"
        case .bytes(let count, _): "/bytes/\(count)"
        }
    }
    var method: HTTPMethod { if case .post = self { .post } else { .get } }
    var content: RequestContent {
        switch self {
        case .get(let parameters): .query(parameters)
        case .post(let payload): .json(payload)
        case .bytes(_, let file): .download(to: file, resumable: false)
        case .status: .plain
        }
    }
    // Optional, with defaults: headers, timeout, validation (2xx), sampleResponse (for stubs).
}

/// The README's placeholder body type.
struct Payload: Codable, Sendable, Equatable {
    var name: String
    var count: Int
}

@Suite("README: Describe an API")
struct DescribeAnAPIExample {
    let provider = Provider<HTTPBin>(transport: HTTPBinStub.transport)

    @Test func statusTargetIsAPlainGetToItsPath() async throws {
        let response = try await provider.request(.status(204))
        #expect(response.statusCode == 204)
        #expect(response.request.method == .get)
        #expect(response.request.url.absoluteString == "https://httpbin.org/status/204")
        #expect(response.request.body.contentLength == nil)
    }

    @Test func getTargetEncodesParametersInOrderAsTheREADMEShows() async throws {
        let response = try await provider.request(.get(["q": "swift", "page": 2, "tags": ["a", "b"]]))
        #expect(response.request.url.absoluteString == "https://httpbin.org/get?q=swift&page=2&tags%5B%5D=a&tags%5B%5D=b")
    }

    @Test func postTargetSendsItsPayloadAsJSON() async throws {
        let payload = Payload(name: "Ada", count: 3)
        let response = try await provider.request(.post(payload))
        #expect(response.request.method == .post)
        #expect(response.request.headers["Content-Type"]?.hasPrefix("application/json") == true)
        #expect(try response.decode(Payload.self, atKeyPath: "json") == payload)
    }

    @Test func bytesTargetDownloadsToTheGivenFile() async throws {
        let file = temporaryDirectory().appendingPathComponent("nested/bytes.bin")
        let response = try await provider.request(.bytes(1024, file))
        #expect(response.fileURL == file)
        #expect(try Data(contentsOf: file).count == 1024)
    }
}
