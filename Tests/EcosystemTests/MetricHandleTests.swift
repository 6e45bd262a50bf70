#if Metrics
    import NetToolbox
    import CoreMetrics
    import Foundation
    import MetricsTestKit
    import NetTestSupport
    import Testing

    @testable import NetCore

    /// Trait `Metrics`: handles made once per label set, labels found without reflecting every call.
    struct MetricHandleTests {
        /// Counts what the factory is asked to make, and makes it with `TestMetrics`.
        final class CountingFactory: MetricsFactory {
            let metrics = TestMetrics()
            let made = Locked<[String: Int]>([:])

            private func count(_ label: String) { made.withLock { $0[label, default: 0] += 1 } }
            func makeCounter(label: String, dimensions: [(String, String)]) -> any CounterHandler {
                count(label)
                return metrics.makeCounter(label: label, dimensions: dimensions)
            }
            func makeFloatingPointCounter(label: String, dimensions: [(String, String)]) -> any FloatingPointCounterHandler {
                count(label)
                return metrics.makeFloatingPointCounter(label: label, dimensions: dimensions)
            }
            func makeMeter(label: String, dimensions: [(String, String)]) -> any MeterHandler {
                count(label)
                return metrics.makeMeter(label: label, dimensions: dimensions)
            }
            func makeRecorder(label: String, dimensions: [(String, String)], aggregate: Bool) -> any RecorderHandler {
                count(label)
                return metrics.makeRecorder(label: label, dimensions: dimensions, aggregate: aggregate)
            }
            func makeTimer(label: String, dimensions: [(String, String)]) -> any TimerHandler {
                count(label)
                return metrics.makeTimer(label: label, dimensions: dimensions)
            }
            func destroyCounter(_ handler: any CounterHandler) { metrics.destroyCounter(handler) }
            func destroyFloatingPointCounter(_ handler: any FloatingPointCounterHandler) { metrics.destroyFloatingPointCounter(handler) }
            func destroyMeter(_ handler: any MeterHandler) { metrics.destroyMeter(handler) }
            func destroyRecorder(_ handler: any RecorderHandler) { metrics.destroyRecorder(handler) }
            func destroyTimer(_ handler: any TimerHandler) { metrics.destroyTimer(handler) }
        }

        enum Small: TargetType {
            case list, detail
            var baseURL: URL { URL(string: "https://example.com")! }
            var path: String { "/items" }
            var method: HTTPMethod { .get }
            var content: RequestContent { .plain }
        }

        enum Paged: TargetType {
            case page(UInt8)
            case user(id: String)
            var baseURL: URL { URL(string: "https://example.com")! }
            var path: String { "/items" }
            var method: HTTPMethod { .get }
            var content: RequestContent { .plain }
        }

        @Test("Repeated calls of one target ask the factory for each counter and timer once, and count every call")
        func handlesAreMadeOnce() async throws {
            let factory = CountingFactory()
            var configuration = ProviderConfiguration()
            configuration.metrics = NetworkMetrics(factory: factory)
            let provider = Provider<Small>(transport: StubTransport(), configuration: configuration)
            for _ in 0..<5 { _ = try await provider.request(.list) }
            _ = try await provider.request(.detail)

            let made = factory.made.withLock { $0 }
            #expect(made["netkit_requests_total"] == 2, "one per target case")
            #expect(made["netkit_request_duration_seconds"] == 2)
            #expect(
                try factory.metrics.expectCounter("netkit_requests_total", [("target", "Small.list"), ("method", "GET"), ("status", "2xx")]).totalValue == 5)
            #expect(
                try factory.metrics.expectCounter("netkit_requests_total", [("target", "Small.detail"), ("method", "GET"), ("status", "2xx")]).totalValue == 1)
        }

        @Test("Labels learned once name each case of a small enum apart; an enum carrying a string is reflected every time and never kept")
        func labelTable() {
            #expect(MetricsTargetLabel.learn(Small.list) == ("Small.list", true))
            #expect(MetricsTargetLabel.learn(Small.detail) == ("Small.detail", true))
            #expect(MetricsTargetLabel.known(Small.list) == "Small.list")
            #expect(MetricsTargetLabel.known(AnyTarget(Small.detail)) == "Small.detail")
            #expect(MetricsTargetLabel.learn(Paged.page(1)) == ("Paged.page", false), "Paged holds a String: too large to key by its bytes")
            #expect(MetricsTargetLabel.known(Paged.user(id: "42")) == nil)
        }
    }
#endif
