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
        private let handles: MetricHandles
        private let inFlight: Meter

        /// Creates metrics that go to `factory` (default: the bootstrapped `MetricsSystem.factory`).
        /// Each counter and timer is made once per label set, on first use, and kept.
        public init(prefix: String = "netkit", factory: any MetricsFactory = MetricsSystem.factory) {
            self.prefix = prefix
            handles = MetricHandles(prefix: prefix, factory: factory)
            inFlight = Meter(label: "\(prefix)_requests_in_flight", dimensions: [], factory: factory)
        }

        /// Records `event` (called by the provider).
        public func observe(_ event: NetworkEvent) {
            // `event.request` is read in place: a copy would copy the request through the runtime.
            switch event.kind {
            case .callStarted:
                inFlight.increment()
            case .retryScheduled:
                handles.counter(.retries, target: Self.label(of: event.request), ("method", event.request.method.rawValue)).increment()
            case .cacheHit, .cacheMiss, .cacheRevalidated:
                handles.counter(.cache, target: Self.label(of: event.request), ("result", Self.cacheResult(event.kind))).increment()
            case .response(let response):
                guard let firstByte = response.metrics?.timeToFirstByte else { return }
                handles.timer(.firstByte, target: Self.label(of: event.request), ("method", event.request.method.rawValue))
                    .recordNanoseconds(Self.nanoseconds(firstByte))
            case .callEnded(let result, let duration):
                let target = Self.label(of: event.request)
                let method = event.request.method.rawValue
                let end = handles.callEnd(target: target, method: method, status: Self.statusClass(result))
                end.requests.increment()
                end.duration.recordNanoseconds(Self.nanoseconds(duration))
                if case .failure(let error) = result {
                    handles.counter(.failures, target: target, ("method", method), ("code", error.code.rawValue)).increment()
                }
                inFlight.decrement()
            case .attemptStarted, .redirectFollowed, .failure:
                break
            }
        }

        /// The call's `target` label: from a table kept per target type (and small enum case), or
        /// reflected once per call and kept in its storage (see ``MetricsTargetLabel``).
        private static func label(of request: Request) -> String {
            if let label = MetricsTargetLabel.known(request.target) { return label }
            if let label = request.callStorage[TargetLabelKey.self] { return label }
            let (label, stored) = MetricsTargetLabel.learn(request.target)
            if !stored { request.callStorage[TargetLabelKey.self] = label }
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
            return statusClasses[status / 100 - 1]
        }

        private static let statusClasses = ["1xx", "2xx", "3xx", "4xx", "5xx"]

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
