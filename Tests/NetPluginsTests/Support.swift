import Foundation
import NetCore
import Synchronization
import Testing

/// A target described by values, so each test states exactly what it sends.
struct Endpoint: TargetType {
    var baseURL = URL(string: "https://api.example.com")!
    var path = "/items"
    var method: HTTPMethod = .get
    var content: RequestContent = .plain
    var headers: [String: String] = [:]
    var validation: Validation = .successCodes
    var sampleResponse = SampleResponse(statusCode: 200)
}

/// Collects what a plugin writes.
final class Lines: Sendable {
    private let storage = Locked<[String]>([])
    var all: [String] { storage.withLock { $0 } }
    var joined: String { all.joined(separator: "\n") }
    var sink: @Sendable (String) -> Void { { line in self.storage.withLock { $0.append(line) } } }
}

/// Counts calls from concurrent tasks.
final class Counter: Sendable {
    private let value = Locked(0)
    @discardableResult func increment() -> Int {
        value.withLock {
            $0 += 1; return $0
        }
    }
    var count: Int { value.withLock { $0 } }
}

/// Live servers exported by `scripts/servers.sh`.
enum TestServers {
    static func url(_ name: String) -> URL? { ProcessInfo.processInfo.environment[name].flatMap(URL.init(string:)) }
    static var required: Bool { ProcessInfo.processInfo.environment["NETKIT_REQUIRE_SERVERS"] == "1" }

    /// The server's URL, or `nil` after recording an issue (required) or printing a skip note.
    static func require(_ name: String) -> URL? {
        if let url = url(name) { return url }
        if required { Issue.record("\(name) not set") } else { print("skipping: \(name) not set (run scripts/test)") }
        return nil
    }
}

/// A stub answering with a closure's response for each request.
func stub(_ answer: @escaping @Sendable (Request) async throws -> Response) -> StubTransport {
    StubTransport(behavior: .custom(answer))
}
