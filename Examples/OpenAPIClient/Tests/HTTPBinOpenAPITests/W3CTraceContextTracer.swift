import Foundation
import InMemoryTracing
import Tracing

/// A test tracer that propagates in the W3C Trace Context format: its spans (kept by an
/// `InMemoryTracer`) get W3C ids (32 hex digits for a trace, 16 for a span) and `inject` writes
/// one `traceparent: 00-<trace id>-<span id>-01` header, as a W3C propagator (swift-otel's)
/// does. Stands in for swift-otel (whose build is too slow for CI); in an app, bootstrap swift-otel
/// instead.
struct W3CTraceContextTracer: Tracer {
    /// The spans started and finished.
    let recorder = InMemoryTracer(
        idGenerator: .init(nextTraceID: { W3CTraceContextTracer.randomHex(bytes: 16) }, nextSpanID: { W3CTraceContextTracer.randomHex(bytes: 8) }))

    func startSpan<Instant: TracerInstant>(
        _ operationName: String, context: @autoclosure () -> InstrumentationContext, ofKind kind: SpanKind,
        at instant: @autoclosure () -> Instant, function: String, file fileID: String, line: UInt
    ) -> InMemorySpan {
        recorder.startSpan(operationName, context: context(), ofKind: kind, at: instant(), function: function, file: fileID, line: line)
    }

    func forceFlush() { recorder.forceFlush() }

    func inject<Carrier, Inject: Injector>(_ context: InstrumentationContext, into carrier: inout Carrier, using injector: Inject)
    where Inject.Carrier == Carrier {
        guard let span = context.inMemorySpanContext else { return }
        injector.inject("00-\(span.traceID)-\(span.spanID)-01", forKey: "traceparent", into: &carrier)
    }

    func extract<Carrier, Extract: Extractor>(_ carrier: Carrier, into context: inout InstrumentationContext, using extractor: Extract)
    where Extract.Carrier == Carrier {
        guard let parsed = extractor.extract(key: "traceparent", from: carrier).flatMap(Self.parse) else { return }
        context.inMemorySpanContext = InMemorySpanContext(traceID: parsed.traceID, spanID: parsed.spanID, parentSpanID: nil)
    }

    /// The trace and span ids of a well-formed `traceparent` (version `00`, lowercase hex, ids
    /// not all zeros, two flag digits); `nil` for anything else.
    static func parse(_ value: String) -> (traceID: String, spanID: String)? {
        let parts = value.split(separator: "-", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 4, parts[0] == "00", parts[3].count == 2,
            parts[1].count == 32, parts[2].count == 16,
            parts.allSatisfy({ $0.allSatisfy { "0123456789abcdef".contains($0) } }),
            parts[1].contains(where: { $0 != "0" }), parts[2].contains(where: { $0 != "0" })
        else { return nil }
        return (parts[1], parts[2])
    }

    /// `bytes` random bytes as lowercase hex, never all zeros (an invalid W3C id).
    static func randomHex(bytes: Int) -> String {
        var values = (0..<bytes).map { _ in UInt8.random(in: 0...255) }
        values[bytes - 1] |= 1
        return values.map { String(format: "%02x", $0) }.joined()
    }
}
