#if OpenAPI && Metrics
    import NetCore

    extension OpenAPIOperation: MetricsLabeledTarget {
        /// `OpenAPIOperation.<operationId>`: the spec's operations are a bounded set.
        public var metricsLabel: String { "OpenAPIOperation.\(operationID)" }
    }
#endif
