import NetToolbox
import Foundation
import NetTestSupport
import NetCore
import NetPlugins

/// A configurable endpoint for unit tests.
struct Endpoint: CacheableTarget {
    var baseURL = URL(string: "https://api.example.com")!
    var path = "items"
    var method: HTTPMethod = .get
    var content: RequestContent = .plain
    var headers: [String: String] = [:]
    var validation: Validation = .successCodes
    var cachePolicy: CachePolicy = .cacheElseNetwork
    var cacheMaxAge: Duration?
    var cacheVersion: Int?
    var cacheSensitiveData: String?
    var cachesAuthorizedRequests: Bool?
}

/// A clock tests move by hand.
final class TestClock: Sendable {
    private let date = Locked(Date(timeIntervalSince1970: 1_700_000_000))
    var now: Date { date.withLock { $0 } }
    func advance(_ seconds: TimeInterval) { date.withLock { $0 += seconds } }
}

/// A stub server: counts requests, records them, answers by a closure that sees the call number.
final class Server: Sendable {
    private let state = Locked<(calls: Int, requests: [Request])>((0, []))
    private let answer: @Sendable (Int, Request) throws -> Response

    /// By default: 200, body "response N", `Content-Type: text/plain`.
    init(
        answer: @escaping @Sendable (Int, Request) throws -> Response = { call, request in
            Response(statusCode: 200, headers: ["Content-Type": "text/plain"], data: Data("response \(call)".utf8), request: request)
        }
    ) {
        self.answer = answer
    }

    var calls: Int { state.withLock { $0.calls } }
    var requests: [Request] { state.withLock { $0.requests } }

    var transport: StubTransport {
        StubTransport(
            behavior: .custom { [self] request in
                let call = state.withLock { state -> Int in
                    state.calls += 1
                    state.requests.append(request)
                    return state.calls
                }
                return try answer(call, request)
            })
    }
}

func temporaryDirectory(_ name: String = #function) -> URL {
    ScratchFolders.make("cache-\(name.filter { $0.isLetter || $0.isNumber })")
}

func makeRequest(
    _ url: String = "https://api.example.com/items", method: HTTPMethod = .get,
    headers: HTTPHeaders = [:], body: RequestBody = .none
) -> Request {
    Request(method: method, url: URL(string: url)!, headers: headers, body: body, target: TestTarget(path: "plain"))
}

func makeEntry(_ body: String, storedAt: Date = Date(timeIntervalSince1970: 1_700_000_000), version: Int = 0) -> CacheEntry {
    CacheEntry(
        statusCode: 200, headers: ["Content-Type": "text/plain", "ETag": "\"e1\""], data: Data(body.utf8),
        storedAt: storedAt, version: version)
}
