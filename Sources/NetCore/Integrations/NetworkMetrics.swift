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
    /// - `netkit_requests_in_flight`: a meter, up when a call starts, down when it ends.
    public struct NetworkMetrics: NetworkEventObserver {
        /// Prefixes every metric's label (`<prefix>_requests_total`). Default `"netkit"`.
        public let prefix: String
        private let factory: any MetricsFactory
        private let names: Names
        private let inFlight: Meter

        /// The metrics' labels, made once.
        private struct Names: Sendable {
            let requests, failures, retries, cache, duration, firstByte: String
            init(_ prefix: String) {
                requests = "\(prefix)_requests_total"
                failures = "\(prefix)_failures_total"
                retries = "\(prefix)_retries_total"
                cache = "\(prefix)_cache_total"
                duration = "\(prefix)_request_duration_seconds"
                firstByte = "\(prefix)_time_to_first_byte_seconds"
            }
        }

        /// Creates metrics that go to `factory` (default: the bootstrapped `MetricsSystem.factory`).
        public init(prefix: String = "netkit", factory: any MetricsFactory = MetricsSystem.factory) {
            self.prefix = prefix
            self.factory = factory
            names = Names(prefix)
            inFlight = Meter(label: "\(prefix)_requests_in_flight", dimensions: [], factory: factory)
        }

        /// Records `event` (called by the provider).
        public func observe(_ event: NetworkEvent) {
            let request = event.request
            let method = request.method.rawValue
            switch event.kind {
            case .callStarted:
                inFlight.increment()
            case .retryScheduled:
                Counter(label: names.retries, dimensions: [("target", Self.label(of: request)), ("method", method)], factory: factory).increment()
            case .cacheHit, .cacheMiss, .cacheRevalidated:
                Counter(label: names.cache, dimensions: [("target", Self.label(of: request)), ("result", Self.cacheResult(event.kind))], factory: factory)
                    .increment()
            case .response(let response):
                guard let firstByte = response.metrics?.timeToFirstByte else { return }
                CoreMetrics.Timer(label: names.firstByte, dimensions: [("target", Self.label(of: request)), ("method", method)], factory: factory)
                    .recordNanoseconds(Self.nanoseconds(firstByte))
            case .callEnded(let result, let duration):
                let target = Self.label(of: request)
                let dimensions = [("target", target), ("method", method), ("status", Self.statusClass(result))]
                Counter(label: names.requests, dimensions: dimensions, factory: factory).increment()
                CoreMetrics.Timer(label: names.duration, dimensions: dimensions, factory: factory).recordNanoseconds(Self.nanoseconds(duration))
                if case .failure(let error) = result {
                    Counter(label: names.failures, dimensions: [("target", target), ("method", method), ("code", error.code.rawValue)], factory: factory)
                        .increment()
                }
                inFlight.decrement()
            case .attemptStarted, .redirectFollowed, .failure:
                break
            }
        }

        /// The call's `target` label, worked out once per call (reflection is not free) and kept
        /// in its storage.
        private static func label(of request: Request) -> String {
            if let known = request.callStorage[TargetLabelKey.self] { return known }
            let label = targetLabel(request.target)
            request.callStorage[TargetLabelKey.self] = label
            return label
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

    /// The `target` label of a call, once worked out.
    private enum TargetLabelKey: RequestContextKey {
        static let defaultValue: String? = nil
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
            get { integrationObservers["Metrics"]?.observer as? NetworkMetrics }
            set { integrationObservers["Metrics"] = newValue.map { IntegrationObserver($0) } }
        }
    }
#endif
