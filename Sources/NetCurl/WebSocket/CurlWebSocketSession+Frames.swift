#if canImport(CCurl)
    import NetWebSocketCore
    import NetBase
    import CCurl
    import Foundation

    /// An open connection's frames: commands from callers, reads and writes on the socket, the
    /// state machine's actions, the close and ping timers, and the end.
    extension CurlWebSocketSession {
        func stepFrames(_ socket: CurlWebSocketSocket, buffer: inout [UInt8]) -> Interest {
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
                case .moved(let count):
                    perform(machine.received(buffer[..<count]))
                    // A plain socket that filled less than the buffer has nothing more now (and
                    // epoll, level-triggered, says so again if it has): no read just to hear "again".
                    if !readsBuffered, count < buffer.count {
                        drained = true
                        reads = .max
                    }
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
                // Weakly: the inbox belongs to the channel, so a strong capture would keep both alive
                // when the reader goes away without reading.
                channel.inbox.onRoom { [weak channel] in channel?.wake() }
                // The reader may have emptied the inbox before the callback was set.
                if channel.inbox.hasRoom { again = true }
            }
            fireTimers()
            if closeSocket, written == outgoing.count { return end() }
            // Stopped by the read cap with the socket not drained: more may wait (in TLS too).
            if mayRead, !drained, reads >= Self.readsPerStep { again = true }
            // Compressed frames a pass left for later go on at once, socket event or not.
            if mayRead, machine.hasUnreadFrames { again = true }
            let deadline = [closeDeadline, nextPing].compactMap { $0 }.min()
            return Interest(read: mayRead, write: written < outgoing.count, deadline: deadline, again: again)
        }

        /// Whether the socket may be read now (back-pressure on both sides).
        var mayRead: Bool {
            guard !closeSocket, machine.phase != .closed, outgoing.count - written < Self.outgoingLimit else { return false }
            if channel.inbox.hasRoom {
                waitingForRoom = false
                return true
            }
            return false
        }

        func fireTimers() {
            let now = ContinuousClock.now
            if let closeDeadline, now >= closeDeadline {
                self.closeDeadline = nil
                perform(machine.closeTimerFired())
                closeSocket = true
                dropOutgoing()
            }
            if let nextPing, now >= nextPing, let interval = pingInterval {
                self.nextPing = now + interval
                if case .success(let bytes) = machine.ping(payload: []) { enqueue(bytes) }
            }
        }

        func flush(_ socket: CurlWebSocketSocket) {
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
            // Senders wait for the socket while the backlog is at the limit, not before.
            let backlogged = outgoing.count - written >= Self.outgoingLimit
            if backlogged != reportedBacklog {
                reportedBacklog = backlogged
                channel.setBacklogged(backlogged)
            }
        }

        /// Forgets what was not written (the connection is gone); its senders get an error.
        func dropOutgoing() {
            outgoing = []
            written = 0
            for send in sends { channel.complete(send.waiter, with: .failure(WebSocketErrors.closed)) }
            sends = []
        }

        func enqueue(_ bytes: [UInt8]) {
            // Nothing waiting (the usual case): the frame becomes the queue, no copy.
            if written == outgoing.count {
                outgoing = bytes
                written = 0
            } else {
                outgoing += bytes
            }
            queuedTotal += bytes.count
        }

        // MARK: Commands and actions

        func handle(_ command: CurlWebSocketChannel.Command) {
            switch command {
            case .send(let message, let waiter):
                // Waiter 0: a send accepted without waiting. A cancelled waiting sender's frame is
                // not sent (nothing of it was queued yet).
                guard waiter == 0 || channel.isWaiting(waiter) else { return }
                switch machine.send(message) {
                case .success(let bytes):
                    enqueue(bytes)
                    if waiter != 0 { sends.append((queuedTotal, waiter)) }
                case .failure: if waiter != 0 { channel.complete(waiter, with: .failure(WebSocketErrors.closed)) }
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

        func perform(_ actions: [WebSocketConnectionStateMachine.Action]) {
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
        func failPings() {
            for ping in pings.removeAll() { channel.complete(ping, with: .failure(WebSocketErrors.closed)) }
        }

        /// The connection ended: every waiter gets its answer, and the loop forgets the session
        /// (it removes the easy handle, which closes the socket).
        func end() -> Interest {
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

        func refuse(_ command: CurlWebSocketChannel.Command) {
            switch command {
            case .send(_, let waiter), .ping(let waiter): channel.complete(waiter, with: .failure(WebSocketErrors.closed))
            case .close(_, _, let continuation): continuation.resume()
            case .abandon: break
            }
        }
    }
#endif
