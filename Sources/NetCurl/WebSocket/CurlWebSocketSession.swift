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
        var phase: Phase
        /// The end of the request's timeout, for the connect and the handshake.
        let openingDeadline: ContinuousClock.Instant
        let errorBuffer: UnsafeMutablePointer<CChar>
        /// The easy handle (`nil` when libcurl refused the request): the loop removes it from its
        /// multi handle and cleans it up once the session has ended.
        let easy: UnsafeMutableRawPointer?
        var machine: WebSocketConnectionStateMachine
        var outgoing: [UInt8] = []
        /// How much of `outgoing` went out.
        var written = 0
        /// Bytes ever queued and ever written, which senders' positions refer to.
        var queuedTotal = 0
        var writtenTotal = 0
        /// Senders waiting for their frame to be written, by the offset in `outgoing` it ends at.
        var sends: [(end: Int, waiter: UInt64)] = []
        /// Pingers waiting for the pong to their ping (``CurlWebSocketChannel/complete(_:with:)``).
        var pings = WebSocketPendingPings()
        var closers: [CheckedContinuation<Void, Never>] = []
        var closeDeadline: ContinuousClock.Instant?
        var nextPing: ContinuousClock.Instant?
        var closeSocket = false
        var waitingForRoom = false
        /// What the channel was last told about the backlog (``CurlWebSocketChannel/setBacklogged(_:)``).
        var reportedBacklog = false
        /// Whether libcurl may hold read data the socket no longer shows (TLS): then reads go on
        /// until libcurl says "again"; on a plain socket a short read means the socket is drained.
        let readsBuffered: Bool

        /// The ping interval, none when not positive, at least 10 ms (a zero interval would keep the
        /// loop from ever sleeping).
        var pingInterval: Duration? {
            settings.pingInterval.flatMap { $0 > .zero ? max($0, .milliseconds(10)) : nil }
        }

        /// Sets up the connect; a request libcurl refuses ends the session at once (``phase`` is
        /// then ``Phase/ended`` and the opener has its error).
        init(_ opening: CurlWebSocketLoopQueue.Opening) {
            channel = opening.channel
            request = opening.request
            handshake = opening.handshake
            settings = opening.settings
            openingDeadline = .now + opening.request.timeout
            readsBuffered = opening.request.url.scheme?.lowercased() != "ws"
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
                // The state leaves `phase` first, so its buffer is not shared (no copy per append);
                // every way out of the step sets `phase` again.
                phase = .ended
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
            nextPing = pingInterval.map { .now + $0 }
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

        func finishWithoutConnection(_ result: Result<WebSocketOpening, NetworkError>) {
            channel.opened(result)
            channel.inbox.finish(throwing: WebSocketErrors.closed)
            for command in channel.end() { refuse(command) }
        }
    }
#endif
