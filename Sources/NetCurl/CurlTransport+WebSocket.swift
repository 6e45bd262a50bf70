#if canImport(CCurl)
    import NetWebSocketCore
    import NetBase
    import Foundation

    extension CurlTransport: WebSocketTransport {
        /// Opens a WebSocket over a connection libcurl sets up (`CURLOPT_CONNECT_ONLY`: TCP, the
        /// request's proxy, TLS with its policy and pins), with NetKit's own HTTP/1.1 upgrade and
        /// RFC 6455 framing, on one of the process's WebSocket loops (one thread per core for all
        /// connections: ``CurlWebSocketLoop``). Redirects are not followed: a 3xx answer is the
        /// handshake's answer.
        package func openWebSocket(
            _ request: Request, handshake: WebSocketHandshake, configuration: WebSocketConfiguration
        ) async throws -> WebSocketOpening {
            let loop = try CurlWebSocketLoops.next()
            let channel = CurlWebSocketChannel(inboxCapacity: max(configuration.effectiveMaximumMessageSize, 64 * 1024), loop: loop)
            let opening = CurlWebSocketLoopQueue.Opening(
                channel: channel, request: request, handshake: handshake, settings: configuration, transport: self.configuration)
            return try await channel.open { () throws(NetworkError) in try loop.open(opening) }
        }
    }
#endif
