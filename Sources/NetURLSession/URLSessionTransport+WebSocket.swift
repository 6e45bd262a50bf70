#if !canImport(FoundationNetworking)
    import NetWebSocketCore
    import Foundation
    import NetBase

    /// On Apple platforms, WebSockets run on `URLSessionWebSocketTask` (see
    /// ``WebSocketTaskOpening`` and ``URLSessionWebSocketConnection``). On Linux the transport
    /// does not conform: FoundationNetworking's task needs a libcurl with WebSocket support, so
    /// `Provider.webSocket` answers with a clear capability error before anything is sent.
    /// The task negotiates permessage-deflate (or not) itself: `WebSocketConfiguration.compression`
    /// does not change what it offers (its `Sec-WebSocket-Extensions` header is the task's own).
    extension URLSessionTransport: WebSocketTransport {
        package func openWebSocket(
            _ request: Request, handshake: WebSocketHandshake, configuration: WebSocketConfiguration
        ) async throws -> WebSocketOpening {
            if Task.isCancelled { throw NetworkError.cancelled }
            let task = session.webSocketTask(with: WebSocketTaskOpening.urlRequest(for: request))
            // The session's delegate cancels HTTP auth challenges and keeps their 401 for the
            // pipeline (a WebSocket task has no exchange to hand it to).
            let delegate = session.delegate as? SessionDelegate
            delegate?.registerWebSocket(task)
            return try await WebSocketTaskOpening.open(
                task, request: request, handshake: handshake, configuration: configuration,
                challengeResponse: { delegate?.unregisterWebSocket(task) })
        }
    }
#endif
