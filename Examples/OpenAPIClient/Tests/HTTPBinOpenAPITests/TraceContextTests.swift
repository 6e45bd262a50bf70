import Foundation
import HTTPBinOpenAPI
import Testing

/// The end-to-end target: a span per call, whose W3C `traceparent` the server sees
/// (httpbin's `/headers` echoes it), through the generated client and `NetKitTransport`.
@Suite struct TraceContextTests {
    @Test("httpbin's /headers echoes one well-formed traceparent whose trace id and span id are the call's span")
    func traceparentReachesTheServer() async throws {
        let value = try #require(ProcessInfo.processInfo.environment["NETKIT_HTTPBIN_URL"], "run through scripts/check-examples")
        let tracer = W3CTraceContextTracer()
        let client = makeHTTPBinClient(serverURL: try #require(URL(string: value)), tracer: tracer)
        let echoed = try await client.getHeaders().ok.body.json.headers.additionalProperties
        let span = try #require(tracer.recorder.finishedSpans.first)
        #expect(tracer.recorder.finishedSpans.count == 1 && span.operationName == "GET")
        let traceparent = try #require(echoed["Traceparent"], "httpbin saw no traceparent: \(echoed.keys.sorted())")
        let sent = try #require(W3CTraceContextTracer.parse(traceparent), "not one W3C traceparent: \(traceparent)")
        #expect(sent.traceID == span.traceID)
        #expect(sent.spanID == span.spanID)
    }
}
