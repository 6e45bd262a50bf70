import Foundation
import NetCore
import NetCurl
import Testing
import NetTestSupport

/// A fully adjustable target for the hostile-server tests.
struct HostileTarget: TargetType, CustomStringConvertible {
    var path: String
    var method: HTTPMethod = .get
    var content: RequestContent = .plain
    var headers: [String: String] = [:]
    var base: URL? = nil
    var timeout: Duration? = .seconds(5)
    var maxResponseBytes: Int64? = nil
    var validation: Validation = .none
    var proxy: ProxyConfiguration? = nil
    var parameterEncoding: ParameterEncoding? = nil

    var baseURL: URL { base ?? TestServers.fault ?? URL(string: "http://127.0.0.1:9")! }
    var options: TargetOptions { TargetOptions(maxResponseBytes: maxResponseBytes, parameterEncoding: parameterEncoding, proxy: proxy) }
    var description: String { path }
}

extension TransportKind {
    /// A transport of this kind with `policy` for redirects.
    func make(redirectPolicy policy: RedirectPolicy) -> any Transport {
        switch self {
        case .urlSession: URLSessionTransport(redirectPolicy: policy)
        case .curl: CurlTransport(configuration: .init(redirectPolicy: policy))
        }
    }
}

/// Records an issue unless `result` is a ``NetworkError/pinningFailed(host:)``.
func expectPinningFailed(_ result: Result<Response, NetworkError>, _ route: String, sourceLocation: SourceLocation = #_sourceLocation) {
    guard case .pinningFailed? = result.failure else {
        Issue.record("a wrong pin \(route) ended with \(String(describing: result))", sourceLocation: sourceLocation)
        return
    }
}

/// The fault server's counter for `key` once it has stopped changing (two reads 300 ms apart
/// agree), or `nil` when it is still changing after `limit`.
func settledFaultCounter(_ key: String, within limit: Duration) async throws -> Int? {
    let deadline = ContinuousClock.now + limit
    var last = try await faultCounter(key)
    while ContinuousClock.now < deadline {
        try await Task.sleep(for: .milliseconds(300))
        let now = try await faultCounter(key)
        if now == last { return now }
        last = now
    }
    return nil
}

/// The fault server's request counter for `key`.
func faultCounter(_ key: String) async throws -> Int {
    let response = try await Provider<HostileTarget>(transport: CurlTransport())
        .request(HostileTarget(path: "/counter/value", content: .query(["key": key])))
    return try response.decode(Int.self, atKeyPath: "count")
}

/// Waits (up to 60 s) until a URLSession request to the fault server answers within a second.
///
/// FoundationNetworking's sessions share one work queue, and a body an earlier test refused may
/// still be read there (discarding) for a while: a test that times its own URLSession calls first
/// waits for that queue to come free, so it measures its own case and not the previous test's.
func awaitFoundationNetworkingIdle() async {
    let provider = Provider<HostileTarget>(transport: URLSessionTransport(), configuration: .init(maxAttempts: 1))
    let deadline = ContinuousClock.now + .seconds(60)
    while ContinuousClock.now < deadline {
        if case .success = await outcome({ try await provider.request(HostileTarget(path: "/healthz", timeout: .seconds(1))) }) { return }
    }
}
