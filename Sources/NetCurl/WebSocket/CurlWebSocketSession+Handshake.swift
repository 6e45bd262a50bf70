#if canImport(CCurl)
    import NetWebSocketCore
    import NetBase
    import Foundation

    /// The HTTP/1.1 upgrade over the connected socket, a step at a time: the request head goes
    /// out, the response head comes back (bounded by ``CurlWebSocketHead/maximumHeadSize``); an
    /// answer other than 101 is read with its body (up to 1 MiB) and handed back as the answer.
    /// The whole opening, connect included, ends by the request's timeout.
    extension CurlWebSocketSession {
        /// How far the handshake is.
        struct Handshake {
            let head: [UInt8]
            var sent = 0
            var received: [UInt8] = []
            /// An answer other than 101 whose body is still coming.
            var refusal: (parsed: CurlWebSocketHead.Parsed, wanted: Int)?

            init(head: [UInt8]) {
                self.head = head
            }
        }

        /// The longest body of a refused upgrade that is kept.
        static let refusalBodyLimit = 1 << 20

        func stepHandshake(_ socket: CurlWebSocketSocket, _ state: inout Handshake, buffer: inout [UInt8]) -> Interest {
            if channel.isCancelled { return endOpening(.failure(.cancelled)) }
            if ContinuousClock.now >= openingDeadline { return endOpening(.failure(.timedOut)) }
            while state.sent < state.head.count {
                switch socket.send(state.head, from: state.sent) {
                case .moved(let count): state.sent += count
                case .wouldBlock:
                    setHandshake(socket, state)
                    return Interest(write: true, deadline: openingDeadline)
                case .ended, .failed:
                    return endOpening(.failure(.connectionLost(reason: "the connection failed while sending the WebSocket handshake")))
                }
            }
            while true {
                do {
                    if let refusal = state.refusal {
                        if state.received.count >= refusal.wanted { return answered(refusal.parsed, body: state.received) }
                    } else if let parsed = try CurlWebSocketHead.response(state.received) {
                        if parsed.status == 101 { return upgrade(socket, parsed, buffer: &buffer) }
                        let length = parsed.headers["Content-Length"].flatMap { Int($0) } ?? 0
                        guard length > 0 else { return answered(parsed, body: []) }
                        state.refusal = (parsed, min(length, Self.refusalBodyLimit))
                        state.received = parsed.rest
                        continue
                    }
                } catch {
                    return endOpening(.failure(NetworkError(error)))
                }
                switch socket.receive(into: &buffer) {
                case .moved(let count): state.received += buffer[..<count]
                case .wouldBlock:
                    setHandshake(socket, state)
                    return Interest(read: true, deadline: openingDeadline)
                case .ended, .failed:
                    if let refusal = state.refusal { return answered(refusal.parsed, body: state.received) }
                    return endOpening(
                        .failure(.connectionLost(reason: "the server closed the connection before answering the WebSocket handshake")))
                }
            }
        }

        /// A 101: checked against the offer, then the connection is the opener's.
        private func upgrade(_ socket: CurlWebSocketSocket, _ parsed: CurlWebSocketHead.Parsed, buffer: inout [UInt8]) -> Interest {
            let response = Response(statusCode: parsed.status, headers: parsed.headers, request: request)
            do {
                let subprotocol = try handshake.validate(status: 101, headers: response.headers)
                if let deflate = try handshake.negotiatedCompression(headers: response.headers) {
                    machine = WebSocketConnectionStateMachine(
                        maximumMessageSize: settings.maximumMessageSize, compression: CurlWebSocketDeflate(deflate))
                }
                channel.opened(.success(.upgraded(response, subprotocol: subprotocol, connection: channel)))
            } catch {
                return endOpening(.failure(NetworkError(error)))
            }
            return upgraded(socket, first: parsed.rest, buffer: &buffer)
        }

        /// An answer without an upgrade (a 401, a 3xx, a 200): the opener gets it as the answer.
        private func answered(_ parsed: CurlWebSocketHead.Parsed, body: [UInt8]) -> Interest {
            var response = Response(statusCode: parsed.status, headers: parsed.headers, request: request)
            let length = parsed.headers["Content-Length"].flatMap { Int($0) } ?? 0
            response.data = Data(body.prefix(min(length, Self.refusalBodyLimit)))
            return endOpening(.success(.answered(response)))
        }
    }

#endif
