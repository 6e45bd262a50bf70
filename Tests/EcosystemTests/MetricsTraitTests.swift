#if Metrics
    import Foundation
    import Metrics
    import MetricsTestKit
    import NetPlugins
    import NetTestSupport
    import Testing

    @testable import NetCore

    /// Trait `Metrics`: counters and timers with bounded labels, against live servers.
    @Suite(.liveServers)
    struct MetricsTraitTests {
        private func provider(_ kind: TransportKind, _ metrics: TestMetrics, plugins: [any Plugin]) throws -> Provider<Bin> {
            _ = try requireHTTPBin()
            var configuration = ProviderConfiguration()
            configuration.metrics = NetworkMetrics(factory: metrics)
            return Provider(transport: kind.make(), plugins: plugins, configuration: configuration)
        }

        @Test("A retried failure, a success and a cache hit are counted by target, method, status class and code", arguments: TransportKind.allCases)
        func countsByBoundedLabels(kind: TransportKind) async throws {
            let metrics = TestMetrics()
            let retry = RetryPlugin(maxRetries: 1, baseDelay: .milliseconds(1), jitter: false, retryableStatuses: [503])
            let cache = CachePlugin(storage: .memory(), policy: .cacheElseNetwork)
            let provider = try provider(kind, metrics, plugins: [retry, cache])
            await #expect(throws: NetworkError.self) { try await provider.request(.status(503)) }
            _ = try await provider.request(.get(["id": "1"]))
            _ = try await provider.request(.get(["id": "1"]))

            #expect(try metrics.expectCounter("netkit_requests_total", [("target", "Bin.status"), ("method", "GET"), ("status", "5xx")]).totalValue == 1)
            #expect(try metrics.expectCounter("netkit_requests_total", [("target", "Bin.get"), ("method", "GET"), ("status", "2xx")]).totalValue == 2)
            #expect(
                try metrics.expectCounter("netkit_failures_total", [("target", "Bin.status"), ("method", "GET"), ("code", "unacceptableStatus")])
                    .totalValue == 1)
            #expect(try metrics.expectCounter("netkit_retries_total", [("target", "Bin.status"), ("method", "GET")]).totalValue == 1)
            #expect(try metrics.expectCounter("netkit_cache_total", [("target", "Bin.get"), ("result", "miss")]).totalValue == 1)
            #expect(try metrics.expectCounter("netkit_cache_total", [("target", "Bin.get"), ("result", "hit")]).totalValue == 1)
            #expect(
                try metrics.expectTimer("netkit_request_duration_seconds", [("target", "Bin.get"), ("method", "GET"), ("status", "2xx")]).values.count == 2)
            #expect(try metrics.expectMeter("netkit_requests_in_flight").lastValue == 0)
            // No label holds a URL, a path or a query value.
            let labels = metrics.counters.flatMap { $0.dimensions.map(\.1) }
            #expect(labels.allSatisfy { !$0.contains("/") && !$0.contains("id") })
            if kind == .curl {
                #expect(try metrics.expectTimer("netkit_time_to_first_byte_seconds", [("target", "Bin.get"), ("method", "GET")]).values.count == 1)
            }
        }

        @Test("A target that is not an enum is labelled by its type only, never by its path")
        func structTargetLabel() {
            struct Item: TargetType {
                var id: String
                var baseURL: URL { URL(string: "https://example.com")! }
                var path: String { "/items/\(id)" }
                var method: HTTPMethod { .get }
                var content: RequestContent { .plain }
            }
            #expect(NetworkMetrics.targetLabel(Item(id: "42")) == "Item")
            #expect(NetworkMetrics.targetLabel(AnyTarget(Bin.status(500))) == "Bin.status")
            struct Operation: MetricsLabeledTarget {
                var baseURL: URL { URL(string: "https://example.com")! }
                var path: String { "/orders/42" }
                var method: HTTPMethod { .post }
                var content: RequestContent { .plain }
                var metricsLabel: String { "Orders.create" }
            }
            #expect(NetworkMetrics.targetLabel(Operation()) == "Orders.create")
        }
    }
#endif
