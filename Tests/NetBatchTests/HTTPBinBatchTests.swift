import NetToolbox
import Foundation
import NetBatch
import NetCore
import Testing
import NetTestSupport

/// httpbin endpoints for the live batch.
enum HTTPBin: TargetType {
    case anything(Int)
    case status(Int)

    var baseURL: URL { TestServers.httpbin ?? URL(string: "http://127.0.0.1:9")! }
    var path: String {
        switch self {
        case .anything(let n): "anything/\(n)"
        case .status(let code): "status/\(code)"
        }
    }
    var method: HTTPMethod { .get }
    var content: RequestContent { .plain }
}

/// Wraps a real transport and records the most requests in flight at once.
final class InFlightCounter: Transport {
    let base: any Transport
    init(base: any Transport) { self.base = base }
    let state = Locked((current: 0, max: 0))
    var capabilities: TransportCapabilities { base.capabilities }
    var maxInFlight: Int { state.withLock { $0.max } }

    func send(_ request: Request, progress: ProgressHandler?) async throws -> Response {
        state.withLock { state in
            state.current += 1
            state.max = max(state.max, state.current)
        }
        defer { state.withLock { $0.current -= 1 } }
        return try await base.send(request, progress: progress)
    }
}

@Suite("Batch against httpbin (integration)")
struct HTTPBinBatchTests {
    @Test("200 httpbin requests at maxConcurrent 8: ordered results, 503 items retried to the limit", .liveServers)
    func liveBatch() async throws {
        _ = try TestServers.require("NETKIT_HTTPBIN_URL")
        let transport = InFlightCounter(base: URLSessionTransport())
        let batch = BatchManager(
            provider: Provider<HTTPBin>(transport: transport),
            configuration: BatchConfiguration(maxConcurrent: 8, maxRetries: 2, retryTiming: .immediately))
        let targets: [HTTPBin] = (0..<200).map { $0 % 25 == 7 ? .status(503) : .anything($0) }
        let result = await batch.run(targets)

        #expect(result.count == 200)
        #expect(transport.maxInFlight <= 8)
        #expect(transport.maxInFlight > 1)
        let failed = result.failures.map(\.index)
        #expect(failed == (0..<200).filter { $0 % 25 == 7 })
        for item in result {
            if item.index % 25 == 7 {
                #expect(item.attempts == 3)
                #expect(item.error?.statusCode == 503)
            } else {
                #expect(item.attempts == 1)
                struct Echo: Decodable { var url: String }
                let echo = try #require(item.response).decode(Echo.self)
                #expect(echo.url.hasSuffix("/anything/\(item.index)"))
            }
        }
    }
}
