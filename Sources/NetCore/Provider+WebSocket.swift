import NetWebSocketCore
import NetBase
import Foundation

extension Provider {
    /// Opens a WebSocket (RFC 6455) to `target`, whose URL is `ws://`, `wss://`, `http://` or
    /// `https://`, through this provider's plugins, TLS policies, proxies and cookie jar.
    ///
    /// ```swift
    /// let socket = try await provider.webSocket(.live, configuration: WebSocketConfiguration(subprotocols: ["v1"]))
    /// try await socket.send(.text("subscribe"))
    /// for try await message in socket.messages { handle(message) }
    /// ```
    ///
    /// The handshake is a request like any other: `prepare` and `willSend` run on it (an auth
    /// plugin adds its header), its answer goes to `didReceive` and `succeed`/`failure`, so a
    /// 401 can be refreshed and retried within the target's timeout, and `process` sees the 101.
    /// The target's timeout covers the handshake only; an open connection lasts until closed.
    /// - Throws: ``NetworkError``: the transport's failure, the handshake's status when
    ///   validation refuses it, ``NetworkError/invalidResponse(reason:underlying:)`` for an
    ///   answer that is not a valid 101 (a wrong `Sec-WebSocket-Accept`, a subprotocol or
    ///   extension that was not offered, a 200), ``NetworkError/transport(reason:underlying:)``
    ///   when the transport cannot open WebSockets (`URLSessionTransport` on Linux).
    public func webSocket(_ target: Target, configuration: WebSocketConfiguration = .init()) async throws(NetworkError) -> WebSocket {
        // The handshake is an HTTP request: a ws/wss base URL is built as http/https (so TLS
        // policies, cookies and proxies apply as they do to requests).
        var pipeline = self.pipeline
        let base = self.configuration.baseURL ?? target.baseURL
        let httpBase = WebSocketURLScheme.http(base)
        if httpBase != base {
            var settings = self.configuration
            settings.baseURL = httpBase
            pipeline = Pipeline(transport: transport, plugins: pipeline.plugins, configuration: settings)
        }
        let observing = plugins.compactMap { $0 as? any WebSocketObservingPlugin }
        // A call like any other: `cancelAll()` ends a handshake in flight.
        return try await calls.run { [pipeline] in
            await pipeline.runWebSocket(target, configuration: configuration, observing: observing)
        }.get()
    }
}
