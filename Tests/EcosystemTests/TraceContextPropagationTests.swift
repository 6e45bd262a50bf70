#if Tracing
    import NetToolbox
    import Foundation
    import NetCore
    import NetPlugins
    import NetTestSupport
    import Testing
    import Tracing

    /// Trait `Tracing`: `TracingPlugin` without a tracer of its own injects through the tracer the
    /// task has (`withTracer`, else the bootstrapped one); with a W3C propagator the server sees
    /// one `traceparent` per attempt, naming that attempt's span.
    @Suite(.liveServers)
    struct TraceContextPropagationTests {
        struct Echo: Decodable { let headers: [String: String] }

        /// httpbin's `/headers`, whose 200 this target refuses so that `RetryPlugin` sends it again.
        struct RefusedHeaders: TargetType {
            var baseURL: URL
            var path: String { "/headers" }
            var method: HTTPMethod { .get }
            var content: RequestContent { .plain }
            var validation: Validation { .codes([204]) }
        }

        /// Keeps the headers httpbin echoed for every refused attempt.
        final class EchoRecorder: Plugin {
            let echoes = Locked<[[String: String]]>([])
            func failure(_ error: NetworkError, for request: Request) async -> FailureAction {
                if let data = error.response?.data, let echo = try? JSONDecoder().decode(Echo.self, from: data) {
                    echoes.withLock { $0.append(echo.headers) }
                }
                return .proceed
            }
        }

        @Test(
            "Without a tracer of its own, TracingPlugin injects through the task's tracer: httpbin echoes one well-formed traceparent naming the call's span",
            arguments: TransportKind.allCases)
        func injectsThroughTheTasksTracer(kind: TransportKind) async throws {
            _ = try requireHTTPBin()
            let tracer = W3CTraceContextTracer()
            let provider = Provider<Bin>(transport: kind.make(), plugins: [TracingPlugin()])
            let response = try await withTracer(tracer) { try await provider.request(.headers) }
            let span = try #require(tracer.recorder.finishedSpans.first)
            #expect(tracer.recorder.finishedSpans.count == 1)
            let traceparent = try #require(try response.decode(Echo.self).headers["Traceparent"])
            let parsed = try #require(W3CTraceContextTracer.parse(traceparent), "not a W3C traceparent: \(traceparent)")
            #expect(parsed.traceID == span.traceID && parsed.spanID == span.spanID)
        }

        @Test("Each attempt of a retried call carries one traceparent of its own span: same trace, the resend's span id", arguments: TransportKind.allCases)
        func oneTraceparentPerAttempt(kind: TransportKind) async throws {
            let url = try requireHTTPBin()
            let tracer = W3CTraceContextTracer()
            let recorder = EchoRecorder()
            let retry = RetryPlugin(maxRetries: 1, baseDelay: .milliseconds(1), jitter: false, retryableStatuses: [200])
            let provider = Provider<RefusedHeaders>(transport: kind.make(), plugins: [recorder, TracingPlugin(), retry])
            await #expect(throws: NetworkError.self) {
                try await withTracer(tracer) { try await provider.request(RefusedHeaders(baseURL: url)) }
            }
            let echoes = recorder.echoes.withLock { $0 }
            #expect(echoes.count == 2)
            // httpbin joins repeated fields with a comma: a lone, well-formed value means one header.
            let sent = try echoes.map { echo in
                let value = try #require(echo["Traceparent"])
                return try #require(W3CTraceContextTracer.parse(value), "not one W3C traceparent: \(value)")
            }
            let spans = tracer.recorder.finishedSpans
            let call = try #require(spans.first { $0.parentSpanID == nil })
            let resend = try #require(spans.first { $0.parentSpanID != nil })
            #expect(spans.count == 2)
            #expect(sent.map(\.traceID) == [call.traceID, call.traceID])
            #expect(sent.map(\.spanID) == [call.spanID, resend.spanID])
        }
    }
#endif
