#if Metrics
    import NetToolbox
    import CoreMetrics
    import NetBase

    /// The counters and timers one ``NetworkMetrics`` has made, made once per metric and label set
    /// and reused by every later call (swift-metrics handles are meant to be kept; making one per
    /// call asks the factory, allocates the handle and its dimensions each time).
    ///
    /// Labels are bounded (target, method, status class, error code, cache result), so the table
    /// is too; one lock guards it, held only to look up or insert.
    final class MetricHandles: Sendable {
        /// Which metric a handle is.
        enum Metric: UInt8, Hashable {
            case requests, failures, retries, cache, duration, firstByte
        }

        /// A metric and its label values (the names are fixed per metric).
        private struct Key: Hashable {
            let metric: Metric
            let target: String
            let second: String
            let third: String
        }

        private let factory: any MetricsFactory
        private let names: [Metric: String]
        private let counters = Locked<[Key: Counter]>([:])
        /// The requests counter and the duration timer of one label set, found together at a call's end.
        private let ends = Locked<[Key: (requests: Counter, duration: CoreMetrics.Timer)]>([:])
        private let timers = Locked<[Key: CoreMetrics.Timer]>([:])

        /// Makes handles on `factory`, labelled `<prefix>_requests_total` and so on.
        init(prefix: String, factory: any MetricsFactory) {
            self.factory = factory
            names = [
                .requests: "\(prefix)_requests_total",
                .failures: "\(prefix)_failures_total",
                .retries: "\(prefix)_retries_total",
                .cache: "\(prefix)_cache_total",
                .duration: "\(prefix)_request_duration_seconds",
                .firstByte: "\(prefix)_time_to_first_byte_seconds",
            ]
        }

        /// The counter of `metric` for these labels (the dimension names in order, then the
        /// values: `target` first).
        func counter(_ metric: Metric, target: String, _ second: (String, String), _ third: (String, String)? = nil) -> Counter {
            let key = Key(metric: metric, target: target, second: second.1, third: third?.1 ?? "")
            if let known = counters.withLock({ $0[key] }) { return known }
            let made = Counter(label: names[metric]!, dimensions: Self.dimensions(target, second, third), factory: factory)
            // Two calls may make the same handle at once: the first stored wins, so every later
            // call records into one handle.
            return counters.withLock { table in
                if let known = table[key] { return known }
                table[key] = made
                return made
            }
        }

        /// The requests counter and the duration timer for a call that ended with `status`, found
        /// with one lookup.
        func callEnd(target: String, method: String, status: String) -> (requests: Counter, duration: CoreMetrics.Timer) {
            let key = Key(metric: .requests, target: target, second: method, third: status)
            if let known = ends.withLock({ $0[key] }) { return known }
            let dimensions = [("target", target), ("method", method), ("status", status)]
            let made = (
                requests: Counter(label: names[.requests]!, dimensions: dimensions, factory: factory),
                duration: CoreMetrics.Timer(label: names[.duration]!, dimensions: dimensions, factory: factory)
            )
            return ends.withLock { table in
                if let known = table[key] { return known }
                table[key] = made
                return made
            }
        }

        /// The timer of `metric` for these labels (as ``counter(_:target:_:_:)``).
        func timer(_ metric: Metric, target: String, _ second: (String, String), _ third: (String, String)? = nil) -> CoreMetrics.Timer {
            let key = Key(metric: metric, target: target, second: second.1, third: third?.1 ?? "")
            if let known = timers.withLock({ $0[key] }) { return known }
            let made = CoreMetrics.Timer(label: names[metric]!, dimensions: Self.dimensions(target, second, third), factory: factory)
            return timers.withLock { table in
                if let known = table[key] { return known }
                table[key] = made
                return made
            }
        }

        private static func dimensions(_ target: String, _ second: (String, String), _ third: (String, String)?) -> [(String, String)] {
            var dimensions = [("target", target), second]
            if let third { dimensions.append(third) }
            return dimensions
        }
    }
#endif
