import Foundation
import HTTPBinOpenAPI
import InMemoryLogging
import InMemoryTracing
import Logging
import MetricsTestKit
import NetOpenAPI
import OpenAPIRuntime
import Testing

/// The generated client through NetKitTransport against the local httpbin that
/// scripts/check-examples starts (`NETKIT_HTTPBIN_URL`): spans, log lines and metrics of a retried
/// call, a cache hit and a failure, and a streamed body.
@Suite struct HTTPBinOpenAPITests {
    let server: URL
    let logs = InMemoryLogHandler()
    let metrics = TestMetrics()
    let tracer = InMemoryTracer()
    let client: Client

    init() throws {
        let value = try #require(ProcessInfo.processInfo.environment["NETKIT_HTTPBIN_URL"], "run through scripts/check-examples")
        server = try #require(URL(string: value))
        var logger = Logger(label: "openapi.tests") { [logs] _ in logs }
        logger.logLevel = .trace
        client = makeHTTPBinClient(serverURL: server, logger: logger, metrics: NetworkMetrics(factory: metrics), tracer: tracer)
    }

    @Test("A JSON GET with a query: one span whose context reached the server, one debug line, one request counted")
    func getWithQuery() async throws {
        let echo = try await client.getEcho(query: .init(name: "café au lait")).ok.body.json
        #expect(echo.args?.additionalProperties["name"] == "café au lait")
        let span = try #require(tracer.finishedSpans.first)
        #expect(tracer.finishedSpans.count == 1 && span.operationName == "GET")
        #expect(echo.headers.additionalProperties["In-Memory-Trace-Id"] == span.traceID)
        #expect(logs.entries.last?.level == .debug && logs.entries.last?.metadata["netkit.target"] == "OpenAPIOperation.getEcho")
        #expect(metrics.counters(label: "netkit_requests_total").map(\.totalValue) == [1])
    }

    @Test("A JSON POST is echoed")
    func postJSON() async throws {
        let echo = try await client.postEcho(body: .json(.init(message: "hello"))).ok.body.json
        #expect(echo.json?.message == "hello")
    }

    @Test("A 503 is retried by RetryPlugin and reaches the client as its undocumented case; the spans, the warning and the failure metric say so")
    func retriedFailure() async throws {
        guard case .undocumented(let status, _) = try await client.getStatus(path: .init(code: 503)) else {
            Issue.record("expected the undocumented 503")
            return
        }
        #expect(status == 503)
        #expect(tracer.finishedSpans.count == 3, "a call span and one per resend")
        #expect(tracer.finishedSpans.filter { $0.parentSpanID != nil }.count == 2)
        #expect(logs.entries.last?.level == .warning && logs.entries.last?.metadata["netkit.attempt"] == "3")
        #expect(try metrics.expectCounter("netkit_retries_total", [("target", "OpenAPIOperation.getStatus"), ("method", "GET")]).totalValue == 2)
        #expect(metrics.counters(label: "netkit_failures_total").map(\.totalValue) == [1])
    }

    @Test("A repeated cacheable operation is answered by CachePlugin: a hit in the metrics and the log, the same body")
    func cacheHit() async throws {
        let first = try await client.getCached(path: .init(seconds: 60)).ok.body.json
        let second = try await client.getCached(path: .init(seconds: 60)).ok.body.json
        #expect(first.url == second.url && first.headers == second.headers)
        #expect(try metrics.expectCounter("netkit_cache_total", [("target", "OpenAPIOperation.getCached"), ("result", "hit")]).totalValue == 1)
        #expect(logs.entries.contains { "\($0.message)" == "cache hit" })
    }

    @Test("A dripped body streams through NetKitTransport chunk by chunk")
    func streamedBody() async throws {
        let drip = try await makeStreamingHTTPBinClient(serverURL: server)
            .drip(query: .init(numbytes: 5, duration: 0.2, delay: 0)).ok.body.binary
        var received: [UInt8] = []
        for try await chunk in drip { received += chunk }
        #expect(received == Array(repeating: UInt8(ascii: "*"), count: 5))
    }
}
