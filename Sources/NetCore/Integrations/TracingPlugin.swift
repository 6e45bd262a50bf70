#if Tracing
    import NetRedaction
    import NetToolbox
    import Foundation
    import NetBase
    import Tracing

    /// A swift-distributed-tracing client span for every call (package trait `Tracing`), and the
    /// span's context injected into the request's headers through the tracer (W3C `traceparent`
    /// with a W3C propagator such as swift-otel's), so the next service joins the trace.
    ///
    /// ```swift
    /// let provider = Provider<API>(plugins: [TracingPlugin(), RetryPlugin()])
    /// ```
    ///
    /// The call's span (kind `.client`, named after the method, as OpenTelemetry's HTTP client
    /// conventions say) is a child of the caller's current context; a retried call gets a child
    /// span per attempt after the first, with `http.request.resend_count`. Attributes:
    /// `http.request.method`, `server.address`, `server.port`, `url.full` (redacted),
    /// `http.response.status_code`, `error.type` (a ``NetworkError/Code``, or the status for a refused
    /// status), `network.protocol.version`. Every span ends exactly once, whatever the outcome
    /// (cancellation and deadlines included): the provider reports the end of every attempt and
    /// every call exactly once.
    public struct TracingPlugin: Plugin, NetworkEventObserver {
        private let tracer: (any Tracer)?
        /// Whether `tracer` is a `NoOpTracer` (worked out once).
        private let isNoOp: Bool

        /// Creates the plugin.
        /// - Parameter tracer: Starts the spans and injects their context. Default `nil`: the
        ///   bootstrapped `InstrumentationSystem.tracer`, read for each call.
        public init(tracer: (any Tracer)? = nil) {
            self.tracer = tracer
            isNoOp = tracer is NoOpTracer
        }

        /// The name in errors and logs.
        public var name: String { "TracingPlugin" }

        /// Injects the current span's context into the request's headers.
        public func prepare(_ request: inout Request) async throws -> PrepareAction {
            if isNoOp { return .proceed }
            // Only an attempt after the first has a span of its own.
            let attemptSpan = request.attempt > 1 ? request.callStorage[AttemptSpanKey.self] : nil
            guard let span = attemptSpan ?? request.callStorage[CallSpanKey.self] else { return .proceed }
            currentTracer.inject(span.context, into: &request.headers, using: HeadersInjector())
            return .proceed
        }

        /// Starts and ends the spans (called by the provider).
        public func observe(_ event: NetworkEvent) {
            // A no-op tracer given here records nothing and injects nothing: skip it all.
            if isNoOp { return }
            // `event.request` and the kind's payloads are read in place, and only once needed:
            // copying either copies a request or response (values without a fixed layout,
            // copied through the runtime).
            let storage = event.request.callStorage
            let attempt = event.request.attempt
            switch event.kind {
            case .callStarted:
                // The bootstrapped tracer is read once per call; a no-op one gets no span.
                let tracer = currentTracer
                if tracer is NoOpTracer { return }
                let span = tracer.startSpan(event.request.method.rawValue, context: InstrumentationContext.current ?? .topLevel, ofKind: .client)
                Self.describe(event.request, on: span)
                storage[CallSpanKey.self] = span
            case .attemptStarted:
                guard attempt > 1, let call = storage[CallSpanKey.self] else { return }
                let span = currentTracer.startSpan(event.request.method.rawValue, context: call.context, ofKind: .client)
                Self.describe(event.request, on: span)
                span.attributes["http.request.resend_count"] = attempt - 1
                storage[AttemptSpanKey.self] = span
            case .response, .failure:
                // Only an attempt after the first has a span of its own.
                guard attempt > 1, let span = storage[AttemptSpanKey.self] else { return }
                if case .response(let response) = event.kind { Self.record(.success(response), on: span) }
                if case .failure(let error) = event.kind { Self.record(.failure(error), on: span) }
                span.end()
                storage[AttemptSpanKey.self] = nil
            case .callEnded:
                guard let span = storage[CallSpanKey.self] else { return }
                storage[CallSpanKey.self] = nil
                if attempt > 1 { span.attributes["http.request.resend_count"] = attempt - 1 }
                if case .callEnded(let result, _) = event.kind { Self.record(result, on: span) }
                span.end()
            case .retryScheduled, .redirectFollowed, .cacheHit, .cacheMiss, .cacheRevalidated:
                break
            }
        }

        private var currentTracer: any Tracer { tracer ?? InstrumentationSystem.tracer }

        /// The request's attributes (OpenTelemetry HTTP client conventions).
        private static func describe(_ request: Request, on span: any Span) {
            guard span.isRecording else { return }
            span.attributes["http.request.method"] = request.method.rawValue
            span.attributes["server.address"] = request.host
            if let port = request.url.port ?? request.url.scheme.flatMap(defaultPort(forScheme:)) { span.attributes["server.port"] = port }
            span.attributes["url.full"] = SecretRedactor.redact(url: request.url)
        }

        /// The outcome's attributes and status.
        private static func record(_ result: Result<Response, NetworkError>, on span: any Span) {
            guard span.isRecording else { return }
            switch result {
            case .success(let response):
                span.attributes["http.response.status_code"] = response.statusCode
                if let version = response.metrics?.httpVersion { span.attributes["network.protocol.version"] = version }
                if response.statusCode >= 400 {
                    span.attributes["error.type"] = "\(response.statusCode)"
                    span.setStatus(SpanStatus(code: .error))
                }
            case .failure(let error):
                if let status = error.response?.statusCode {
                    span.attributes["http.response.status_code"] = status
                    span.attributes["error.type"] = "\(status)"
                } else {
                    span.attributes["error.type"] = error.code.rawValue
                }
                span.setStatus(SpanStatus(code: .error, message: error.code.rawValue))
            }
        }
    }

    /// The call's span, kept in its ``CallStorage``.
    private enum CallSpanKey: RequestContextKey {
        static let defaultValue: (any Span)? = nil
    }

    /// The span of the current attempt after the first, kept in the call's ``CallStorage``.
    private enum AttemptSpanKey: RequestContextKey {
        static let defaultValue: (any Span)? = nil
    }

    /// Writes a tracer's propagation fields into request headers.
    struct HeadersInjector: Injector {
        func inject(_ value: String, forKey key: String, into carrier: inout HTTPHeaders) {
            carrier[key] = value
        }
    }
#endif
