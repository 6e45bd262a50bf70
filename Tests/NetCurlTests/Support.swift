import Foundation
import NetCore
@testable import NetBase
@testable import NetCore
@testable import NetCurl
import Testing

/// Loopback servers started by `scripts/test` (see scripts/servers.sh).
enum TestServers {
    static func url(_ name: String) -> URL? { ProcessInfo.processInfo.environment[name].flatMap(URL.init(string:)) }
    static func value(_ name: String) -> String? { ProcessInfo.processInfo.environment[name] }
    static var required: Bool { ProcessInfo.processInfo.environment["NETKIT_REQUIRE_SERVERS"] == "1" }

    /// The server URL, or nil after recording a failure (required) or printing a skip note.
    static func require(_ name: String) -> URL? {
        if let url = url(name) { return url }
        if required {
            Issue.record("\(name) not set")
        } else {
            print("skipping: \(name) not set (run scripts/test)")
        }
        return nil
    }
}

/// A target for building `Request`s by hand.
struct TestTarget: TargetType {
    var baseURL: URL = URL(string: "http://127.0.0.1")!
    var path: String = "/"
    var method: HTTPMethod = .get
    var content: RequestContent = .plain
}

extension Request {
    /// A request for `url` built directly (no provider).
    static func to(
        _ url: URL, method: HTTPMethod = .get, headers: HTTPHeaders = [:], body: RequestBody = .none,
        timeout: Duration = .seconds(30), download: DownloadDestination? = nil, tls: TLSPolicy? = nil
    ) -> Request {
        Request(
            method: method, url: url, headers: headers, body: body, timeout: timeout, download: download,
            tls: tls, target: TestTarget())
    }
}

/// Runs `body` and returns the `NetworkError` it throws, or records an issue when it succeeds.
func networkError(_ body: () async throws -> Response, sourceLocation: SourceLocation = #_sourceLocation) async -> NetworkError? {
    do {
        let response = try await body()
        Issue.record("expected an error, got \(response)", sourceLocation: sourceLocation)
        return nil
    } catch let error as NetworkError {
        return error
    } catch {
        Issue.record("expected a NetworkError, got \(error)", sourceLocation: sourceLocation)
        return nil
    }
}

/// The fault server's `/range/<size>` bytes: byte i is i % 251.
func rangePattern(count: Int, from start: Int = 0) -> Data {
    var data = Data(count: count)
    data.withUnsafeMutableBytes { raw in
        let bytes = raw.bindMemory(to: UInt8.self)
        for index in 0..<count { bytes[index] = UInt8((start + index) % 251) }
    }
    return data
}

/// A fresh empty folder under the temporary directory.
func makeTemporaryFolder() throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("netcurl-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
}
