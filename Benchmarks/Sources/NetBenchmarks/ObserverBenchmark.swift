import Foundation
import Logging
import Metrics
import NetCore
import NetCurl
import Tracing

/// The event point and the observability traits over CurlTransport at 8 concurrent: a provider
/// with no observer (no event is made), with one no-op observer (every event made and delivered),
/// and with a swift-log `Logger` at `.info`, swift-metrics and swift-distributed-tracing on no-op
/// backends (the target: at most 3% more CPU per request than none).
func observerBenchmark(total: Int) async throws {
    let transport = CurlTransport()
    let bare = observedProvider(.none, transport: transport)
    let observed = observedProvider(.observer, transport: transport)
    let traced = observedProvider(.traits, transport: transport)
    let results = try await compare(
        [
            ("Provider + CurlTransport, no observer", { _ in _ = try await bare.request(.small, as: SmallDocument.self) }),
            ("  + one no-op event observer", { _ in _ = try await observed.request(.small, as: SmallDocument.self) }),
            ("  + Logger (.info), metrics, tracing (no-op backends)", { _ in _ = try await traced.request(.small, as: SmallDocument.self) }),
        ], total: total * 2, concurrency: 8, rounds: 5)
    report("Event observers and the observability traits, CurlTransport, 8 concurrent", results)
    let cpu = results.map(\.1.cpuMicrosPerRequest)
    print(
        "CPU per request vs none: observer \(format((cpu[1] / cpu[0] - 1) * 100, decimals: 1))%, traits \(format((cpu[2] / cpu[0] - 1) * 100, decimals: 1))% (target: at most 3%)"
    )
}

/// The providers of the observability rows.
enum ObservedKind: String {
    /// No observer: no event is made.
    case none
    /// One no-op `NetworkEventHandler`.
    case observer
    /// A swift-log `Logger` at `.info`, swift-metrics and swift-distributed-tracing on no-op backends.
    case traits
}

func observedProvider(_ kind: ObservedKind, transport: CurlTransport) -> Provider<BenchAPI> {
    switch kind {
    case .none:
        return Provider<BenchAPI>(transport: transport)
    case .observer:
        var observing = ProviderConfiguration()
        observing.eventObservers = [NetworkEventHandler { _ in }]
        return Provider<BenchAPI>(transport: transport, configuration: observing)
    case .traits:
        var integrated = ProviderConfiguration()
        var logger = Logger(label: "bench") { _ in SwiftLogNoOpLogHandler() }
        logger.logLevel = .info
        integrated.logger = logger
        integrated.metrics = NetworkMetrics(factory: NOOPMetricsHandler.instance)
        return Provider<BenchAPI>(transport: transport, plugins: [TracingPlugin(tracer: NoOpTracer())], configuration: integrated)
    }
}

/// `--profile-observers=N,KIND` (KIND `none`, `observer` or `traits`): N sequential requests through
/// that row's provider and nothing else, for counting instructions per request under callgrind
/// (per request = (run of N2 − run of N1) / (N2 − N1)), steadier than CPU time on a shared machine.
func profileObservers(_ spec: String) async throws {
    let parts = spec.split(separator: ",")
    let total = parts.first.flatMap { Int($0) } ?? 1000
    let kind = parts.count > 1 ? ObservedKind(rawValue: String(parts[1])) ?? .none : .none
    let provider = observedProvider(kind, transport: CurlTransport())
    let run = try await measure(total: total, concurrency: 1) { _ in _ = try await provider.request(.small, as: SmallDocument.self) }
    print("\(kind.rawValue): \(run.requests) requests, \(format(run.cpuMicrosPerRequest, decimals: 1)) us CPU/req")
}
