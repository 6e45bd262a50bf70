import Foundation
import Logging
import NetOpenAPI
import NetPlugins
import Tracing

/// The generated client on NetKit: `NetKitTransport` with `RetryPlugin` (idempotent calls, 503
/// included), `CachePlugin(.http)`, `TracingPlugin` and `LoggerPlugin`, and the configuration's
/// logger and metrics when given.
public func makeHTTPBinClient(
    serverURL: URL, logger: Logger? = nil, metrics: NetworkMetrics? = nil, tracer: (any Tracer)? = nil,
    logLines: @escaping @Sendable (String) -> Void = { _ in }
) -> Client {
    var configuration = ProviderConfiguration()
    configuration.logger = logger
    configuration.metrics = metrics
    let plugins: [any Plugin] = [
        TracingPlugin(tracer: tracer),
        RetryPlugin(maxRetries: 2, baseDelay: .milliseconds(10)),
        CachePlugin(storage: .memory(), policy: .http),
        LoggerPlugin(output: logLines),
    ]
    // Buffered bodies: CachePlugin stores whole responses. `drip` streams through its own transport.
    let transport = NetKitTransport(plugins: plugins, configuration: configuration, responseBodies: .buffered)
    return Client(serverURL: serverURL, transport: transport)
}

/// The generated client with streamed response bodies (`/drip` arrives as it is sent).
public func makeStreamingHTTPBinClient(serverURL: URL) -> Client {
    Client(serverURL: serverURL, transport: NetKitTransport(responseBodies: .streamed))
}
