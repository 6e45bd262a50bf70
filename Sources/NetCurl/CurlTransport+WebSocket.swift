#if canImport(CCurl)
    import NetWebSocketCore
    import NetBase
    import Foundation

    extension CurlTransport: WebSocketTransport {
        /// Opens a WebSocket over a connection libcurl sets up (`CURLOPT_CONNECT_ONLY`: TCP, the
        /// request's proxy, TLS with its policy and pins), with NetKit's own HTTP/1.1 upgrade and
        /// RFC 6455 framing, on a small I/O thread of the connection's own (it blocks no task
        /// and no curl loop). Redirects are not followed: a 3xx answer is the handshake's answer.
        package func openWebSocket(
            _ request: Request, handshake: WebSocketHandshake, configuration: WebSocketConfiguration
        ) async throws -> WebSocketOpening {
            let channel = try CurlWebSocketChannel(inboxCapacity: max(configuration.effectiveMaximumMessageSize, 64 * 1024))
            let settings = self.configuration
            return try await channel.open {
                let thread = Thread {
                    CurlWebSocketLoop(channel: channel, request: request, handshake: handshake, settings: configuration, transport: settings).run()
                }
                thread.name = "NetKit.WebSocket"
                thread.stackSize = 1 << 20
                thread.start()
            }
        }
    }
#endif
