#if Tracing
    import NetToolbox
    import Foundation
    import InMemoryTracing
    import NetCore
    import NetPlugins
    import NetTestSupport
    import Testing
    import Tracing

    /// Trait `Tracing`: a client span per call (and per retried attempt), its context in the
    /// request's headers, each span ended exactly once.
    @Suite(.liveServers)
    struct TracingTraitTests {
        @Test("A live call's span follows the HTTP client conventions and its context reaches the server", arguments: TransportKind.allCases)
        func spanAndPropagation(kind: TransportKind) async throws {
            let url = try requireHTTPBin()
            let tracer = InMemoryTracer()
            let provider = Provider<Bin>(transport: kind.make(), plugins: [TracingPlugin(tracer: tracer)])
            let response = try await provider.request(.headers)
            let spans = tracer.finishedSpans
            let span = try #require(spans.first)
            #expect(spans.count == 1)
            #expect(span.operationName == "GET" && span.kind == .client)
            #expect(span.attributes["http.request.method"]?.toSpanAttribute() == "GET")
            #expect(span.attributes["server.address"]?.toSpanAttribute() == .string(url.host ?? ""))
            #expect(span.attributes["server.port"]?.toSpanAttribute() == .int64(Int64(url.port ?? 0)))
            #expect(span.attributes["http.response.status_code"]?.toSpanAttribute() == 200)
            // httpbin echoes the headers it got: the tracer's propagation fields are among them.
            struct Echo: Decodable { let headers: [String: String] }
            let echoed = try response.decode(Echo.self).headers
            #expect(echoed["In-Memory-Trace-Id"] == span.traceID)
            #expect(echoed["In-Memory-Span-Id"] == span.spanID)
        }

        @Test("A retried call has one call span and a child span for the resend, each ended once, with error.type", arguments: TransportKind.allCases)
        func retriedCall(kind: TransportKind) async throws {
            _ = try requireHTTPBin()
            let tracer = InMemoryTracer()
            let retry = RetryPlugin(maxRetries: 1, baseDelay: .milliseconds(1), jitter: false, retryableStatuses: [503])
            let provider = Provider<Bin>(transport: kind.make(), plugins: [TracingPlugin(tracer: tracer), retry])
            await #expect(throws: NetworkError.self) { try await provider.request(.status(503)) }
            let spans = tracer.finishedSpans
            #expect(spans.count == 2)
            #expect(tracer.activeSpans.isEmpty)
            let call = try #require(spans.first { $0.parentSpanID == nil })
            let resend = try #require(spans.first { $0.parentSpanID != nil })
            #expect(resend.parentSpanID == call.spanID && resend.traceID == call.traceID)
            #expect(resend.attributes["http.request.resend_count"]?.toSpanAttribute() == 1)
            #expect(call.attributes["error.type"]?.toSpanAttribute() == "503")
            #expect(call.status?.code == .error)
            // The second attempt carried its own span's context.
            #expect(tracer.performedContextInjections.map { $0.values[InMemoryTracer.spanIDKey] } == [call.spanID, resend.spanID])
        }

        @Test("A cancelled call and a call whose request cannot be built each end their span exactly once")
        func cancelledAndUnbuilt() async throws {
            let tracer = InMemoryTracer()
            let cancelling = Locked<Provider<Bin>?>(nil)
            var configuration = ProviderConfiguration()
            configuration.eventObservers = [
                NetworkEventHandler { event in
                    if case .attemptStarted = event.kind { cancelling.withLock { $0 }?.cancelAll() }
                }
            ]
            let provider = Provider<Bin>(
                transport: StubTransport(behavior: .delayed(.seconds(30))), plugins: [TracingPlugin(tracer: tracer)], configuration: configuration)
            cancelling.withLock { $0 = provider }
            await #expect(throws: NetworkError.self) { try await provider.request(.headers) }
            #expect(tracer.finishedSpans.count == 1)
            #expect(tracer.finishedSpans.first?.attributes["error.type"]?.toSpanAttribute() == "cancelled")
            #expect(tracer.activeSpans.isEmpty)
        }
    }
#endif
