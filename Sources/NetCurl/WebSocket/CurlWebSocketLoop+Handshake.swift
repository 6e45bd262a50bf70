#if canImport(CCurl)
    import NetBase
    import Foundation

    extension CurlWebSocketLoop {
        /// Writes the handshake request and reads the answer's head (and, for an answer that is
        /// not a 101, its body up to 1 MiB when it has a `Content-Length`), by `deadline`.
        /// - Returns: The response and the bytes read after the head (the first frames).
        func exchangeHandshake(over socket: CurlWebSocketSocket, by deadline: ContinuousClock.Instant) throws(NetworkError) -> (Response, [UInt8]) {
            let head = CurlWebSocketHead.request(request)
            var offset = 0
            while offset < head.count {
                switch socket.send(head, from: offset) {
                case .moved(let count): offset += count
                case .wouldBlock: try wait(on: socket, read: false, by: deadline)
                case .ended, .failed: throw .connectionLost(reason: "the connection failed while sending the WebSocket handshake")
                }
            }
            var received: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                if let parsed = try CurlWebSocketHead.response(received) {
                    var response = Response(statusCode: parsed.status, headers: parsed.headers, request: request)
                    guard parsed.status != 101 else { return (response, parsed.rest) }
                    response.data = Data(try readBody(after: parsed, from: socket, by: deadline))
                    return (response, [])
                }
                switch socket.receive(into: &buffer) {
                case .moved(let count): received += buffer[..<count]
                case .wouldBlock: try wait(on: socket, read: true, by: deadline)
                case .ended, .failed:
                    throw .connectionLost(reason: "the server closed the connection before answering the WebSocket handshake")
                }
            }
        }

        /// The body of an answer that is not a 101, when its `Content-Length` says how long (at
        /// most 1 MiB is kept); otherwise none.
        private func readBody(
            after parsed: CurlWebSocketHead.Parsed, from socket: CurlWebSocketSocket, by deadline: ContinuousClock.Instant
        ) throws(NetworkError) -> [UInt8] {
            guard let length = parsed.headers["Content-Length"].flatMap({ Int($0) }), length > 0 else { return [] }
            let wanted = min(length, 1 << 20)
            var body = parsed.rest
            var buffer = [UInt8](repeating: 0, count: 16 * 1024)
            while body.count < wanted {
                switch socket.receive(into: &buffer) {
                case .moved(let count): body += buffer[..<count]
                case .wouldBlock: try wait(on: socket, read: true, by: deadline)
                case .ended, .failed: return body
                }
            }
            return Array(body.prefix(wanted))
        }

        /// Waits for the socket during the handshake, ending it at the deadline or a cancel.
        private func wait(on socket: CurlWebSocketSocket, read: Bool, by deadline: ContinuousClock.Instant) throws(NetworkError) {
            if channel.isCancelled { throw .cancelled }
            if ContinuousClock.now >= deadline { throw .timedOut }
            socket.wait(read: read, write: !read, wake: channel.wakePipe.readDescriptor, until: deadline)
            if channel.isCancelled { throw .cancelled }
        }
    }
#endif
