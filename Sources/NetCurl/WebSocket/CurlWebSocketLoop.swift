#if canImport(CCurl)
    import NetWebSocketCore
    import NetBase
    import CCurl
    import Foundation

    /// One curl WebSocket's I/O thread: connects through libcurl, runs the handshake, then moves
    /// frames between the socket and ``WebSocketConnectionStateMachine`` until the connection
    /// ends. Only this thread touches the easy handle, the machine and the buffers.
    ///
    /// Memory stays bounded: the socket is read only while the reader's inbox has room and
    /// fewer than ``outgoingLimit`` bytes wait to be written (a ping flood whose pongs the peer
    /// does not read stops being read too); a frame's payload is kept only within the maximum
    /// message size, checked from its header. With permessage-deflate, one pass inflates about
    /// 1 MiB (``WebSocketConnectionStateMachine/inflationPerCall``, or one frame's worth up to
    /// the maximum message size) and leaves the frames after it buffered until the reader has
    /// room, so a read of small compressed messages cannot become gigabytes in the inbox.
    final class CurlWebSocketLoop {
        /// Unsent bytes past which the socket is not read (so answers cannot pile up).
        static let outgoingLimit = 1 << 20
        let channel: CurlWebSocketChannel
        let request: Request
        private let handshake: WebSocketHandshake
        private let settings: WebSocketConfiguration
        private let transport: CurlTransport.Configuration
        private var machine: WebSocketConnectionStateMachine
        private var outgoing: [UInt8] = []
        /// How much of `outgoing` went out.
        private var written = 0
        /// Bytes ever queued and ever written, which senders' positions refer to.
        private var queuedTotal = 0
        private var writtenTotal = 0
        /// Senders waiting for their frame to be written, by the offset in `outgoing` it ends at.
        private var sends: [(end: Int, waiter: UInt64)] = []
        /// Pingers waiting for the pong to their ping (``CurlWebSocketChannel/complete(_:with:)``).
        private var pings = WebSocketPendingPings()
        private var closers: [CheckedContinuation<Void, Never>] = []
        private var closeDeadline: ContinuousClock.Instant?
        private var nextPing: ContinuousClock.Instant?
        private var closeSocket = false
        private var waitingForRoom = false

        init(
            channel: CurlWebSocketChannel, request: Request, handshake: WebSocketHandshake, settings: WebSocketConfiguration,
            transport: CurlTransport.Configuration
        ) {
            self.channel = channel
            self.request = request
            self.handshake = handshake
            self.settings = settings
            self.transport = transport
            machine = WebSocketConnectionStateMachine(maximumMessageSize: settings.maximumMessageSize)
        }

        /// Runs the whole life of the connection on the calling (dedicated) thread.
        func run() {
            let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE))
            errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
            defer { errorBuffer.deallocate() }
            let deadline = ContinuousClock.now + request.timeout
            let socket: CurlWebSocketSocket
            let first: [UInt8]
            do {
                socket = try CurlWebSocketConnect.connect(request, configuration: transport, channel: channel, errorBuffer: errorBuffer)
                let response: Response
                do {
                    (response, first) = try exchangeHandshake(over: socket, by: deadline)
                    guard response.statusCode == 101 else {
                        curl_easy_cleanup(socket.easy)
                        return finishWithoutConnection(.success(.answered(response)))
                    }
                    let subprotocol = try handshake.validate(status: 101, headers: response.headers)
                    if let deflate = try handshake.negotiatedCompression(headers: response.headers) {
                        machine = WebSocketConnectionStateMachine(
                            maximumMessageSize: settings.maximumMessageSize, compression: CurlWebSocketDeflate(deflate))
                    }
                    channel.opened(.success(.upgraded(response, subprotocol: subprotocol, connection: channel)))
                } catch {
                    curl_easy_cleanup(socket.easy)
                    throw error
                }
            } catch {
                return finishWithoutConnection(.failure(NetworkError(error)))
            }
            nextPing = settings.pingInterval.map { .now + $0 }
            perform(machine.received(first))
            exchangeFrames(over: socket)
            curl_easy_cleanup(socket.easy)
            finish()
        }

        private func finishWithoutConnection(_ result: Result<WebSocketOpening, NetworkError>) {
            channel.opened(result)
            channel.inbox.finish(throwing: WebSocketErrors.closed)
            for command in channel.end() { refuse(command) }
        }

        // MARK: Frames

        private func exchangeFrames(over socket: CurlWebSocketSocket) {
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            while true {
                for command in channel.takeCommands() { handle(command) }
                flush(socket)
                if closeSocket, written == outgoing.count || closeDeadline.map({ .now >= $0 }) ?? true { return }
                var reads = 0
                while mayRead, reads < 16, machine.phase != .closed {
                    reads += 1
                    // Compressed frames left over from a pass that inflated its share go first.
                    if machine.hasUnreadFrames {
                        perform(machine.received(EmptyCollection()))
                        continue
                    }
                    switch socket.receive(into: &buffer) {
                    case .moved(let count): perform(machine.received(buffer[..<count]))
                    case .wouldBlock: reads = .max
                    case .ended, .failed: perform(machine.connectionEnded())
                    }
                }
                if closeSocket, written == outgoing.count { return }
                if !channel.inbox.hasRoom, !waitingForRoom {
                    waitingForRoom = true
                    channel.inbox.onRoom { [channel] in channel.wake() }
                    // The reader may have emptied the inbox before the callback was set.
                    if channel.inbox.hasRoom { continue }
                }
                fireTimers()
                if reads == .max || !mayRead || closeSocket {
                    let deadline = [closeDeadline, nextPing].compactMap { $0 }.min()
                    socket.wait(read: mayRead, write: written < outgoing.count, wake: channel.wakePipe.readDescriptor, until: deadline)
                    fireTimers()
                }
            }
        }

        /// Whether the socket may be read now (back-pressure on both sides).
        private var mayRead: Bool {
            guard !closeSocket, machine.phase != .closed, outgoing.count - written < Self.outgoingLimit else { return false }
            if channel.inbox.hasRoom {
                waitingForRoom = false
                return true
            }
            return false
        }

        private func fireTimers() {
            let now = ContinuousClock.now
            if let closeDeadline, now >= closeDeadline {
                self.closeDeadline = nil
                perform(machine.closeTimerFired())
                closeSocket = true
                dropOutgoing()
            }
            if let nextPing, now >= nextPing, let interval = settings.pingInterval {
                self.nextPing = now + interval
                if case .success(let bytes) = machine.ping(payload: []) { enqueue(bytes) }
            }
        }

        private func flush(_ socket: CurlWebSocketSocket) {
            writing: while written < outgoing.count {
                switch socket.send(outgoing, from: written) {
                case .moved(let count):
                    written += count
                    writtenTotal += count
                case .wouldBlock: break writing
                case .ended, .failed:
                    perform(machine.connectionEnded())
                    dropOutgoing()
                    return
                }
            }
            if written == outgoing.count {
                outgoing.removeAll(keepingCapacity: outgoing.capacity <= 64 * 1024)
                written = 0
            } else if written >= 64 * 1024 {
                outgoing.removeFirst(written)
                written = 0
            }
            while let first = sends.first, first.end <= writtenTotal {
                sends.removeFirst()
                channel.complete(first.waiter, with: .success(()))
            }
        }

        /// Forgets what was not written (the connection is gone); its senders get an error.
        private func dropOutgoing() {
            outgoing = []
            written = 0
            for send in sends { channel.complete(send.waiter, with: .failure(WebSocketErrors.closed)) }
            sends = []
        }

        private func enqueue(_ bytes: [UInt8]) {
            outgoing += bytes
            queuedTotal += bytes.count
        }

        // MARK: Commands and actions

        private func handle(_ command: CurlWebSocketChannel.Command) {
            switch command {
            case .send(let message, let waiter):
                // A cancelled sender's frame is not sent (nothing of it was queued yet).
                guard channel.isWaiting(waiter) else { return }
                switch machine.send(message) {
                case .success(let bytes):
                    enqueue(bytes)
                    sends.append((queuedTotal, waiter))
                case .failure: channel.complete(waiter, with: .failure(WebSocketErrors.closed))
                }
            case .ping(let waiter):
                guard channel.isWaiting(waiter), machine.phase == .open else {
                    return channel.complete(waiter, with: .failure(WebSocketErrors.closed))
                }
                pings.forget { [channel] in !channel.isWaiting($0) }
                if case .success(let bytes) = machine.ping(payload: pings.add(waiter: waiter)) { enqueue(bytes) }
            case .close(let code, let reason, let continuation):
                closers.append(continuation)
                perform(machine.close(code: code, reason: reason))
            case .abandon:
                perform(machine.close(code: .goingAway, reason: ""))
            }
        }

        private func perform(_ actions: [WebSocketConnectionStateMachine.Action]) {
            for action in actions {
                switch action {
                case .write(let bytes): enqueue(bytes)
                case .deliver(let message): channel.inbox.yield(message)
                case .pongReceived(let payload):
                    for ping in pings.answered(by: payload) { channel.complete(ping, with: .success(())) }
                case .startCloseTimer: closeDeadline = .now + settings.closeTimeout
                case .closeTransport:
                    closeSocket = true
                    // Our close frame (or its echo) gets until the close timeout to go out.
                    if closeDeadline == nil { closeDeadline = .now + settings.closeTimeout }
                case .finish:
                    channel.closed(code: machine.closeCode, reason: machine.closeReason)
                    channel.inbox.finish()
                    failPings()
                case .fail(let failure):
                    channel.closed(code: machine.closeCode, reason: machine.closeReason)
                    channel.inbox.finish(throwing: WebSocketErrors.error(for: failure, limit: machine.maximumMessageSize))
                    failPings()
                }
            }
        }

        /// The connection closed or failed: no pong can come any more.
        private func failPings() {
            for ping in pings.removeAll() { channel.complete(ping, with: .failure(WebSocketErrors.closed)) }
        }

        /// The connection ended: every waiter gets its answer.
        private func finish() {
            channel.closed(code: machine.closeCode ?? .abnormalClosure, reason: machine.closeReason)
            channel.inbox.finish(throwing: WebSocketErrors.lost)
            for command in channel.end() { refuse(command) }
            for send in sends { channel.complete(send.waiter, with: .failure(WebSocketErrors.closed)) }
            for ping in pings.removeAll() { channel.complete(ping, with: .failure(WebSocketErrors.closed)) }
            for closer in closers { closer.resume() }
            sends = []
            closers = []
        }

        private func refuse(_ command: CurlWebSocketChannel.Command) {
            switch command {
            case .send(_, let waiter), .ping(let waiter): channel.complete(waiter, with: .failure(WebSocketErrors.closed))
            case .close(_, _, let continuation): continuation.resume()
            case .abandon: break
            }
        }
    }
#endif
