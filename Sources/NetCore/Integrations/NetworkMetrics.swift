#if Metrics
    import Metrics
    import Foundation
    import NetBase

    /// Counters and timers of every call, for swift-metrics (package trait `Metrics`).
    ///
    /// ```swift
    /// configuration.metrics = NetworkMetrics()          // MetricsSystem's factory, prefix "netkit"
    /// ```
    ///
    /// Labels are bounded: the target's type and enum case (`target`, the type alone for a target
    /// that is not an enum), `method`, the status class (`status`: `2xx`…`5xx`, or `error` when
    /// there was no response), ``NetworkError/Code`` (`code`) and the cache decision (`result`);
    /// never a URL, a path or an id. What is recorded (with the default prefix):
    /// - `netkit_requests_total` {target, method, status}: calls ended.
    /// - `netkit_failures_total` {target, method, code}: calls ended with an error.
    /// - `netkit_retries_total` {target, method}: retries scheduled.
    /// - `netkit_cache_total` {target, result}: `hit`, `miss`, `revalidated`.
    /// - `netkit_request_duration_seconds` {target, method, status}: a timer of whole calls.
    /// - `netkit_time_to_first_byte_seconds` {target, method}: a timer of each response's first byte.
    /// - `netkit_requests_in_flight` {method}: a meter, up when a call starts, down when it ends.
    public struct NetworkMetrics: IntegrationObserver {
        /// Prefixes every metric's label (`<prefix>_requests_total`). Default `"netkit"`.
        public var prefix: String
        private let factory: any MetricsFactory

        /// Creates metrics that go to `factory` (default: the bootstrapped `MetricsSystem.factory`).
        public init(prefix: String = "netkit", factory: any MetricsFactory = MetricsSystem.factory) {
            self.prefix = prefix
            self.factory = factory
        }

        package var isActive: Bool { true }

        /// Records `event` (called by the provider).
        public func observe(_ event: NetworkEvent) {
            let request = event.request
            let target = Self.targetLabel(request.target)
            let method = request.method.rawValue
            switch event.kind {
            case .callStarted:
                Meter(label: "\(prefix)_requests_in_flight", dimensions: [("method", method)], factory: factory).increment()
            case .retryScheduled:
                Counter(label: "\(prefix)_retries_total", dimensions: [("target", target), ("method", method)], factory: factory).increment()
            case .cacheHit, .cacheMiss, .cacheRevalidated:
                Counter(label: "\(prefix)_cache_total", dimensions: [("target", target), ("result", Self.cacheResult(event.kind))], factory: factory)
                    .increment()
            case .response(let response):
                guard let firstByte = response.metrics?.timeToFirstByte else { return }
                CoreMetrics.Timer(label: "\(prefix)_time_to_first_byte_seconds", dimensions: [("target", target), ("method", method)], factory: factory)
                    .recordNanoseconds(Self.nanoseconds(firstByte))
            case .callEnded(let result, let duration):
                let status = Self.statusClass(result)
                let dimensions = [("target", target), ("method", method), ("status", status)]
                Counter(label: "\(prefix)_requests_total", dimensions: dimensions, factory: factory).increment()
                CoreMetrics.Timer(label: "\(prefix)_request_duration_seconds", dimensions: dimensions, factory: factory).recordNanoseconds(
                    Self.nanoseconds(duration))
                if case .failure(let error) = result {
                    Counter(
                        label: "\(prefix)_failures_total", dimensions: [("target", target), ("method", method), ("code", error.code.rawValue)], factory: factory
                    )
                    .increment()
                }
                Meter(label: "\(prefix)_requests_in_flight", dimensions: [("method", method)], factory: factory).decrement()
            case .attemptStarted, .redirectFollowed, .failure:
                break
            }
        }

        /// `Type.case` for an enum target, a ``MetricsLabeledTarget``'s own label, the type name for
        /// any other (its path may hold ids).
        static func targetLabel(_ target: any TargetType) -> String {
            if let erased = target as? AnyTarget { return targetLabel(erased.base) }
            if let labeled = target as? any MetricsLabeledTarget { return labeled.metricsLabel }
            let typeName = String(describing: type(of: target))
            let mirror = Mirror(reflecting: target)
            guard mirror.displayStyle == .enum else { return typeName }
            if let caseName = mirror.children.first?.label { return "\(typeName).\(caseName)" }
            return "\(typeName).\(String(describing: target))"
        }

        /// `2xx`…`5xx` for a response (a refused status included), `error` without one.
        static func statusClass(_ result: Result<Response, NetworkError>) -> String {
            let status: Int?
            switch result {
            case .success(let response): status = response.statusCode
            case .failure(let error): status = error.response?.statusCode
            }
            guard let status, (100...599).contains(status) else { return "error" }
            return "\(status / 100)xx"
        }

        private static func cacheResult(_ kind: NetworkEvent.Kind) -> String {
            switch kind {
            case .cacheHit: "hit"
            case .cacheMiss: "miss"
            default: "revalidated"
            }
        }

        private static func nanoseconds(_ duration: Duration) -> Int64 {
            let (seconds, attoseconds) = duration.components
            return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
        }
    }

    /// A target that is not an enum but still has a bounded name for the `target` label of
    /// ``NetworkMetrics`` (an OpenAPI operation id, say). Never return a value that varies per call.
    public protocol MetricsLabeledTarget: TargetType {
        /// The `target` label, such as `Orders.create`.
        var metricsLabel: String { get }
    }

    extension ProviderConfiguration {
        /// Where every call's counters and timers go (package trait `Metrics`). Default `nil`: none.
        public var metrics: NetworkMetrics? {
            get { integrationObservers["Metrics"] as? NetworkMetrics }
            set { integrationObservers["Metrics"] = newValue }
        }
    }
#endif
