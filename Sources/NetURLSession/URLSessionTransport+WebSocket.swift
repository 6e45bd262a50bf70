#if !canImport(FoundationNetworking)
    import Foundation
    import NetBase

    /// On Apple platforms, WebSockets run on `URLSessionWebSocketTask` (see
    /// ``WebSocketTaskOpening`` and ``URLSessionWebSocketConnection``). On Linux the transport
    /// does not conform: FoundationNetworking's task needs a libcurl with WebSocket support, so
    /// `Provider.webSocket` answers with a clear capability error before anything is sent.
    extension URLSessionTransport: WebSocketTransport {
        package func openWebSocket(
            _ request: Request, handshake: WebSocketHandshake, configuration: WebSocketConfiguration
        ) async throws -> WebSocketOpening {
            if Task.isCancelled { throw NetworkError.cancelled }
            let task = session.webSocketTask(with: WebSocketTaskOpening.urlRequest(for: request))
            return try await WebSocketTaskOpening.open(task, request: request, handshake: handshake, configuration: configuration)
        }
    }
#endif
