#if canImport(CCurl)
    import NetWebSocketCore
    import NetBase
    import CCurl
    import Foundation

    /// One curl WebSocket on a WebSocket loop (``CurlWebSocketLoop``): connects through libcurl
    /// on the loop's multi handle, runs the handshake, then moves frames between the socket and
    /// ``WebSocketConnectionStateMachine`` until the connection ends. Driven by its loop's thread
    /// only (``step(readable:writable:buffer:)``), which alone touches the easy handle, the
    /// machine and the buffers; it never blocks.
    ///
    /// Memory stays bounded: the socket is read only while the reader's inbox has room and
    /// fewer than ``outgoingLimit`` bytes wait to be written (a ping flood whose pongs the peer
    /// does not read stops being read too); a frame's payload is kept only within the maximum
    /// message size, checked from its header. With permessage-deflate, one pass inflates about
    /// 1 MiB (``WebSocketConnectionStateMachine/inflationPerCall``, or one frame's worth up to
    /// the maximum message size) and leaves the frames after it buffered until the reader has
    /// room, so a read of small compressed messages cannot become gigabytes in the inbox. An idle
    /// connection holds no read buffer: the loop lends its own to each step.
    final class CurlWebSocketSession {
        /// Unsent bytes past which the socket is not read (so answers cannot pile up).
        static let outgoingLimit = 1 << 20
        /// Reads in one step before the session lets the loop's other connections go first.
        static let readsPerStep = 16

        /// Where the connection is.
        enum Phase {
            /// libcurl is connecting (the easy handle is in the loop's multi handle).
            case connecting(CurlWebSocketConnect.Pending)
            /// The upgrade request is going out, then its answer coming in.
            case handshaking(CurlWebSocketSocket, Handshake)
            /// Frames move both ways.
            case open(CurlWebSocketSocket)
            /// Over: the loop forgets the session.
            case ended
        }

        /// What the loop waits for on the session's behalf after a step.
        struct Interest: Equatable {
            var read = false
            var write = false
            /// When to step again even if nothing happens on the socket.
            var deadline: ContinuousClock.Instant?
            /// Step again at once (a read left data behind, or there is room again).
            var again = false
        }

        let channel: CurlWebSocketChannel
        let request: Request
        let handshake: WebSocketHandshake
        let settings: WebSocketConfiguration
        private(set) var phase: Phase
        /// The end of the request's timeout, for the connect and the handshake.
        let openingDeadline: ContinuousClock.Instant
        let errorBuffer: UnsafeMutablePointer<CChar>
        /// The easy handle (`nil` when libcurl refused the request): the loop removes it from its
        /// multi handle and cleans it up once the session has ended.
        let easy: UnsafeMutableRawPointer?
        var machine: WebSocketConnectionStateMachine
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

        /// Sets up the connect; a request libcurl refuses ends the session at once (``phase`` is
        /// then ``Phase/ended`` and the opener has its error).
        init(_ opening: CurlWebSocketLoopQueue.Opening) {
            channel = opening.channel
            request = opening.request
            handshake = opening.handshake
            settings = opening.settings
            openingDeadline = .now + opening.request.timeout
            errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE))
            errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
            machine = WebSocketConnectionStateMachine(maximumMessageSize: opening.settings.maximumMessageSize)
            let prepared: Result<CurlWebSocketConnect.Pending, NetworkError>
            do {
                prepared = .success(
                    try CurlWebSocketConnect.prepare(opening.request, configuration: opening.transport, channel: opening.channel, errorBuffer: errorBuffer))
            } catch {
                prepared = .failure(error)
            }
            switch prepared {
            case .success(let pending):
                easy = pending.easy
                phase = .connecting(pending)
            case .failure(let error):
                easy = nil
                phase = .ended
                finishWithoutConnection(.failure(error))
            }
        }

        deinit {
            errorBuffer.deallocate()
        }

        /// The socket, once connected.
        var descriptor: Int32? {
            switch phase {
            case .handshaking(let socket, _), .open(let socket): socket.descriptor
            case .connecting, .ended: nil
            }
        }

        var hasEnded: Bool {
            if case .ended = phase { return true }
            return false
        }

        // MARK: Steps (the loop's thread)

        /// libcurl finished connecting with `code`: the handshake starts, or the opener gets the error.
        func connected(_ code: CURLcode, buffer: inout [UInt8]) -> Interest {
            guard case .connecting(let pending) = phase else { return Interest() }
            do {
                let socket = try CurlWebSocketConnect.connected(
                    pending, code: code, errorBuffer: errorBuffer, request: request, channel: channel)
                phase = .handshaking(socket, Handshake(head: CurlWebSocketHead.request(request)))
                return step(readable: false, writable: true, buffer: &buffer)
            } catch {
                phase = .ended
                finishWithoutConnection(.failure(error))
                return Interest()
            }
        }

        /// Moves what can move now: commands, the handshake, frames both ways, timers. Returns
        /// what to wait for next; after it, ``hasEnded`` may be true.
        func step(readable: Bool, writable: Bool, buffer: inout [UInt8]) -> Interest {
            switch phase {
            case .connecting:
                // libcurl connects; a cancel reaches it through the progress callback.
                return Interest(deadline: nil)
            case .handshaking(let socket, var state):
                return stepHandshake(socket, &state, buffer: &buffer)
            case .open(let socket):
                return stepFrames(socket, buffer: &buffer)
            case .ended:
                return Interest()
            }
        }

        /// The handshake succeeded: frames start, with what came after the 101's head.
        func upgraded(_ socket: CurlWebSocketSocket, first: [UInt8], buffer: inout [UInt8]) -> Interest {
            phase = .open(socket)
            nextPing = settings.pingInterval.map { .now + $0 }
            perform(machine.received(first))
            return stepFrames(socket, buffer: &buffer)
        }

        /// The handshake failed or was answered without an upgrade: the opener gets `result`.
        func endOpening(_ result: Result<WebSocketOpening, NetworkError>) -> Interest {
            phase = .ended
            finishWithoutConnection(result)
            return Interest()
        }

        /// Ends the session with `error` wherever it is (the loop could not keep watching it).
        func abort(_ error: NetworkError) -> Interest {
            switch phase {
            case .connecting, .handshaking: return endOpening(.failure(error))
            case .open:
                channel.inbox.finish(throwing: error)
                return end()
            case .ended: return Interest()
            }
        }

        func setHandshake(_ socket: CurlWebSocketSocket, _ state: Handshake) {
            phase = .handshaking(socket, state)
        }

        private func finishWithoutConnection(_ result: Result<WebSocketOpening, NetworkError>) {
            channel.opened(result)
            channel.inbox.finish(throwing: WebSocketErrors.closed)
            for command in channel.end() { refuse(command) }
        }

        // MARK: Frames

        private func stepFrames(_ socket: CurlWebSocketSocket, buffer: inout [UInt8]) -> Interest {
            for command in channel.takeCommands() { handle(command) }
            flush(socket)
            if closeSocket, written == outgoing.count || closeDeadline.map({ .now >= $0 }) ?? true { return end() }
            var reads = 0
            var drained = false
            while mayRead, reads < Self.readsPerStep, machine.phase != .closed {
                reads += 1
                // Compressed frames left over from a pass that inflated its share go first.
                if machine.hasUnreadFrames {
                    perform(machine.received(EmptyCollection()))
                    continue
                }
                switch socket.receive(into: &buffer) {
                case .moved(let count): perform(machine.received(buffer[..<count]))
                case .wouldBlock:
                    drained = true
                    reads = .max
                case .ended, .failed: perform(machine.connectionEnded())
                }
            }
            // Pongs and close echoes the reads queued go out now.
            flush(socket)
            if closeSocket, written == outgoing.count { return end() }
            var again = false
            if !channel.inbox.hasRoom, !waitingForRoom {
                waitingForRoom = true
                channel.inbox.onRoom { [channel] in channel.wake() }
                // The reader may have emptied the inbox before the callback was set.
                if channel.inbox.hasRoom { again = true }
            }
            fireTimers()
            if closeSocket, written == outgoing.count { return end() }
            // Stopped by the read cap with the socket not drained: more may wait (in TLS too).
            if mayRead, !drained, reads >= Self.readsPerStep { again = true }
            let deadline = [closeDeadline, nextPing].compactMap { $0 }.min()
            return Interest(read: mayRead, write: written < outgoing.count, deadline: deadline, again: again)
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

        /// The connection ended: every waiter gets its answer, and the loop forgets the session
        /// (it removes the easy handle, which closes the socket).
        private func end() -> Interest {
            phase = .ended
            channel.closed(code: machine.closeCode ?? .abnormalClosure, reason: machine.closeReason)
            channel.inbox.finish(throwing: WebSocketErrors.lost)
            for command in channel.end() { refuse(command) }
            for send in sends { channel.complete(send.waiter, with: .failure(WebSocketErrors.closed)) }
            for ping in pings.removeAll() { channel.complete(ping, with: .failure(WebSocketErrors.closed)) }
            for closer in closers { closer.resume() }
            sends = []
            closers = []
            return Interest()
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
