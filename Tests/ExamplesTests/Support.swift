// Shared helpers for the README examples: a tiny in-process stand-in for httpbin, so the
// examples run with `StubTransport` (no network) in CI.
import NetToolbox
import Foundation
import NetTestSupport
import NetCore

/// Answers like httpbin: `/status/N`, `/get` (echoes `args` and `headers`), `/post` (echoes
/// `json` and `headers`), `/bytes/N` (N bytes).
enum HTTPBinStub {
    static let transport = StubTransport(behavior: .custom { request in try answer(request) })

    static func answer(_ request: Request) throws -> Response {
        let path = request.url.path
        if path.hasPrefix("/status/"), let code = Int(path.dropFirst("/status/".count)) {
            return Response(statusCode: code, request: request)
        }
        if path.hasPrefix("/bytes/"), let count = Int(path.dropFirst("/bytes/".count)) {
            return Response(
                statusCode: 200, headers: ["Content-Type": "application/octet-stream"],
                data: Data(repeating: 0x2A, count: count), request: request)
        }
        var body: [String: Any] = ["headers": request.headers.dictionary, "url": request.url.absoluteString]
        switch path {
        case "/get":
            let items = URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems ?? []
            body["args"] = Dictionary(items.map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { _, last in last })
        case "/post":
            let data = request.body.inMemoryData ?? Data()
            body["json"] = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        default:
            return Response(statusCode: 404, request: request)
        }
        return Response(
            statusCode: 200, headers: ["Content-Type": "application/json"],
            data: try JSONSerialization.data(withJSONObject: body), request: request)
    }
}

/// A fresh temporary directory for files an example writes.
func temporaryDirectory() -> URL {
    ScratchFolders.make("examples")
}

extension Locked {
    /// The value now.
    var current: Value { withLock { $0 } }
    /// Changes the value under the lock.
    func update<R>(_ body: (inout Value) -> R) -> R { withLock { body(&$0) } }
}

/// Calls `action` from `willSend`, so a test can wait until a request is about to be sent.
struct OnWillSend: Plugin {
    let action: @Sendable () -> Void
    init(_ action: @escaping @Sendable () -> Void) { self.action = action }
    func willSend(_ request: Request) async -> SendAction {
        action()
        return .proceed
    }
}
