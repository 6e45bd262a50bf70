import Foundation
import NetCore
import NetMallocCounter
import NetTestSupport
import Testing

/// Heap allocations per request, under a budget: the guard for the request path's layout rules
/// (RequestPathRules.md, beside this file). A change that makes every request allocate more (a
/// field outside the boxes, a large local in an async frame, a helper inlined into one) fails
/// here, in CI, instead of showing up months later in a benchmark table.
///
/// The figures are a debug build's (what `scripts/test` builds); release figures are in
/// Benchmarks/RESULTS.md. Each budget is today's count plus a margin for the noise of the few
/// allocations a run makes outside the calls (a timer, a thread's first use of a cache); the
/// count is the smallest of several rounds, so one round disturbed by another thread does not
/// fail the test.
@Suite("Heap allocations per request, under a budget", .serialized)
struct AllocationBudgetTests {
    /// Allocations per call of `Provider` with five no-op plugins over the stub (sampled answer).
    static let stubBudget = 80.0
    /// Allocations per call of `Provider` with five no-op plugins over `CurlTransport` to nginx.
    static let curlBudget = 860.0

    @Test("Provider + 5 no-op plugins over the stub")
    func stubbed() async throws {
        try #require(allocationCounterInstalled, "the allocation counter is not installed (glibc, no sanitizer)")
        let provider = Provider<SmallAPI>(transport: StubTransport(), plugins: Self.noOpPlugins)
        let perCall = try await Self.allocationsPerCall { _ = try await provider.request(.small) }
        print("allocation budget: stub \(perCall) allocations per call (budget \(Self.stubBudget))")
        #expect(perCall <= Self.stubBudget, "Provider + 5 no-op plugins over the stub: \(perCall) allocations per call")
    }

    @Test("Provider + 5 no-op plugins over CurlTransport to nginx", .liveServers)
    func overCurl() async throws {
        try #require(allocationCounterInstalled, "the allocation counter is not installed (glibc, no sanitizer)")
        SmallAPI.server = try TestServers.require("NETKIT_NGINX_URL")
        let provider = Provider<SmallAPI>(transport: CurlTransport(), plugins: Self.noOpPlugins)
        let perCall = try await Self.allocationsPerCall { _ = try await provider.request(.small) }
        print("allocation budget: curl \(perCall) allocations per call (budget \(Self.curlBudget))")
        #expect(perCall <= Self.curlBudget, "Provider + 5 no-op plugins over CurlTransport: \(perCall) allocations per call")
    }

    static var noOpPlugins: [any Plugin] { (0..<5).map { _ in NoOpPlugin() } }

    /// The fewest allocations per call over `rounds` rounds of `calls` sequential calls, after a
    /// warm-up round (connections, caches and lazily made statics are not the request path's).
    static func allocationsPerCall(
        rounds: Int = 5, calls: Int = 200, _ call: () async throws -> Void
    ) async throws -> Double {
        for _ in 0..<calls { try await call() }
        var fewest = Double.infinity
        for _ in 0..<rounds {
            let before = netkit_bench_allocations()
            for _ in 0..<calls { try await call() }
            fewest = min(fewest, Double(netkit_bench_allocations() - before) / Double(calls))
        }
        return fewest
    }

    /// Whether this build counts allocations (glibc without a sanitizer).
    var allocationCounterInstalled: Bool {
        let before = netkit_bench_allocations()
        let probe = UnsafeMutableRawPointer.allocate(byteCount: 64, alignment: 8)
        probe.deallocate()
        return netkit_bench_allocations() > before
    }
}

/// A plugin that implements every hook and changes nothing.
struct NoOpPlugin: Plugin {
    func prepare(_ request: inout Request) async throws -> PrepareAction { .proceed }
    func willSend(_ request: Request) async -> SendAction { .proceed }
    func succeed(_ response: Response, for request: Request) async -> SucceedAction { .proceed }
    func failure(_ error: NetworkError, for request: Request) async -> FailureAction { .proceed }
    func process(_ result: Result<Response, NetworkError>, for request: Request) async -> Result<Response, NetworkError> { result }
}

/// nginx's 95-byte document (scripts/servers.sh writes it), or its stubbed twin.
enum SmallAPI: TargetType {
    case small

    /// Set by the live test before its provider is made.
    nonisolated(unsafe) static var server = URL(string: "http://127.0.0.1")!

    var baseURL: URL { Self.server }
    var path: String { "/small.json" }
    var method: HTTPMethod { .get }
    var content: RequestContent { .plain }
    var sampleResponse: SampleResponse {
        SampleResponse(
            statusCode: 200, headers: ["Content-Type": "application/json", "Content-Length": "95", "ETag": "\"6b09863f-5f\""],
            data: Data(#"{"id":1,"name":"NetKit","tags":["a","b"],"active":true,"score":9.5,"note":"benchmark payload"}"#.utf8 + [0x0A]))
    }
}
