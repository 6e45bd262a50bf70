// The README section "Describe an API" and the article "Getting Started" show this file verbatim:
// the check in ArticleTwinTests.swift requires it to open with their block and to import nothing
// else, so the block compiles as pasted. Its tests are in DescribeAnAPITests.swift.
import Foundation
import NetCore

/// The JSON body of `HTTPBin.post`.
struct Payload: Codable, Sendable, Equatable {
    var name: String
    var count: Int
}

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

// From async code, e.g. `try await firstCall()` in main.swift or in a Task of your app:
func firstCall() async throws {
    let provider = Provider<HTTPBin>()
    let response = try await provider.request(.status(200))
    print(response.statusCode)  // 200
}
