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
    let bare = Provider<BenchAPI>(transport: transport)
    var observing = ProviderConfiguration()
    observing.eventObservers = [NetworkEventHandler { _ in }]
    let observed = Provider<BenchAPI>(transport: transport, configuration: observing)
    var integrated = ProviderConfiguration()
    var logger = Logger(label: "bench") { _ in SwiftLogNoOpLogHandler() }
    logger.logLevel = .info
    integrated.logger = logger
    integrated.metrics = NetworkMetrics(factory: NOOPMetricsHandler.instance)
    let traced = Provider<BenchAPI>(transport: transport, plugins: [TracingPlugin(tracer: NoOpTracer())], configuration: integrated)
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
