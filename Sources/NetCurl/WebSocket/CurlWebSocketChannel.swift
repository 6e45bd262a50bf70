#if canImport(CCurl)
    import NetWebSocketCore
    import NetToolbox
    import NetBase
    import Foundation

    /// The thread-safe face of one curl WebSocket: callers append commands and wake the
    /// connection's WebSocket loop (``CurlWebSocketLoop``), whose thread alone touches libcurl and the socket.
    final class CurlWebSocketChannel: InboxBackedWebSocketConnection {
        /// What a caller asked for, carried out on the loop's thread.
        enum Command {
            /// A message whose sender waits as `waiter` (see ``complete(_:with:)``).
            case send(WebSocket.Message, waiter: UInt64)
            /// A ping whose sender waits as `waiter` for its pong.
            case ping(waiter: UInt64)
            case close(WebSocket.CloseCode, String, CheckedContinuation<Void, Never>)
            /// The ``WebSocket`` was released while open: close with 1001 (going away).
            case abandon
        }

        private struct Shared {
            var commands: [Command] = []
            var ended = false
            var cancelled = false
            var closeCode: WebSocket.CloseCode?
            var closeReason: String?
            var opening: CheckedContinuation<WebSocketOpening, any Error>?
            /// Senders and pingers waiting, by the number their call drew; each is resumed once,
            /// by whoever removes it first (the loop, a cancel, or the end).
            var waiters: [UInt64: CheckedContinuation<Void, any Error>] = [:]
            var lastWaiter: UInt64 = 0
            /// Payload bytes of sends accepted without waiting that the loop has not taken yet.
            var acceptedBytes = 0
            /// The loop's unwritten bytes reached ``CurlWebSocketSession/outgoingLimit``.
            var backlogged = false
            /// A close or an abandon was asked for: sends after it are refused.
            var closing = false
            /// The loop was told and has not taken the commands yet: one wake per batch.
            var wakePending = false
        }

        /// A send is accepted at once while this many bytes (and no backlog) wait for the loop.
        static let acceptedLimit = 1 << 20
        /// What each accepted message counts beyond its payload, so empty messages are bounded too.
        static let acceptedOverhead = 64

        /// What ``send(_:)`` does with a message.
        private enum SendAcceptance {
            /// Closing or closed.
            case refused
            /// Too much waits: the sender waits for the socket.
            case mustWait
            /// Queued; the loop is woken unless a wake for this batch is already on its way.
            case taken(wakeLoop: Bool)
        }

        let inbox: WebSocketInbox
        private let shared = Locked(Shared())
        /// The loop that runs the connection, told when there is something to do.
        private let loop: CurlWebSocketLoopQueue

        /// A channel whose connection `loop` runs; the reader's inbox holds up to `inboxCapacity` bytes.
        init(inboxCapacity: Int, loop: CurlWebSocketLoopQueue) {
            inbox = WebSocketInbox(capacity: inboxCapacity)
            self.loop = loop
        }

        // MARK: Callers

        /// Hands the message to the loop. While little waits to be written (under
        /// ``acceptedLimit`` bytes, and the socket keeps up) it returns at once, so many sends
        /// become one turn of the loop and one write; past that it waits until the frame is
        /// written, which is the back-pressure a fast sender feels. Cancelling a waiting send ends
        /// it with ``NetworkError/cancelled`` (a frame not yet queued for the socket is then not sent).
        func send(_ message: WebSocket.Message) async throws {
            let size = message.byteCount + Self.acceptedOverhead
            let acceptance: SendAcceptance = shared.withLock { shared in
                guard !shared.ended, !shared.closing, shared.closeCode == nil else { return .refused }
                guard !shared.backlogged, shared.acceptedBytes + size <= Self.acceptedLimit else { return .mustWait }
                shared.acceptedBytes += size
                shared.commands.append(.send(message, waiter: 0))
                defer { shared.wakePending = true }
                return .taken(wakeLoop: !shared.wakePending)
            }
            switch acceptance {
            case .refused: throw WebSocketErrors.closed
            case .mustWait: try await submitWaiting { .send(message, waiter: $0) }
            case .taken(let wakeLoop): if wakeLoop { wake() }
            }
        }

        /// Waits for the pong; cancelling the task ends the wait with ``NetworkError/cancelled``,
        /// and the connection's end (close or failure) with an error.
        func ping() async throws {
            try await submitWaiting { .ping(waiter: $0) }
        }

        /// Queues the command `make` builds for a new waiter and waits for its completion.
        private func submitWaiting(_ make: (UInt64) -> Command) async throws {
            let waiter = shared.withLock { shared in
                shared.lastWaiter &+= 1
                return shared.lastWaiter
            }
            let command = make(waiter)
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                    let accepted = shared.withLock { shared in
                        guard !shared.ended else { return false }
                        shared.waiters[waiter] = continuation
                        shared.commands.append(command)
                        return true
                    }
                    guard accepted else { return continuation.resume(throwing: WebSocketErrors.closed) }
                    wake()
                    // A cancel that came before the waiter was stored found nothing to end.
                    if Task.isCancelled { complete(waiter, with: .failure(.cancelled)) }
                }
            } onCancel: {
                complete(waiter, with: .failure(.cancelled))
            }
        }

        /// Resumes the caller waiting as `waiter` with `result`, once: later calls for the same
        /// waiter (a cancel racing the loop) do nothing.
        func complete(_ waiter: UInt64, with result: Result<Void, NetworkError>) {
            let continuation = shared.withLock { $0.waiters.removeValue(forKey: waiter) }
            continuation?.resume(with: result.mapError { $0 as any Error })
        }

        /// Whether the caller waiting as `waiter` still waits (it was not cancelled).
        func isWaiting(_ waiter: UInt64) -> Bool {
            shared.withLock { $0.waiters[waiter] != nil }
        }

        func close(_ code: WebSocket.CloseCode, reason: String) async {
            await withCheckedContinuation { submit(.close(code, reason, $0)) }
        }

        func abandon() { submit(.abandon) }

        var closeCode: WebSocket.CloseCode? { shared.withLock { $0.closeCode } }
        var closeReason: String? { shared.withLock { $0.closeReason } }

        /// Waits for the loop's connect and handshake; cancelling the task stops them. A `start`
        /// that throws (the system refused the loop a thread) ends the wait with its error.
        func open(start: () throws(NetworkError) -> Void) async throws -> WebSocketOpening {
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    shared.withLock { $0.opening = continuation }
                    do throws(NetworkError) {
                        try start()
                    } catch {
                        failOpening(error)
                    }
                }
            } onCancel: {
                shared.withLock { $0.cancelled = true }
                wake()
            }
        }

        private func submit(_ command: Command) {
            let accepted = shared.withLock { shared in
                guard !shared.ended else { return false }
                switch command {
                case .close, .abandon: shared.closing = true
                case .send, .ping: break
                }
                shared.commands.append(command)
                return true
            }
            if accepted { return wake() }
            switch command {
            case .send(_, let waiter), .ping(let waiter): complete(waiter, with: .failure(WebSocketErrors.closed))
            case .close(_, _, let continuation): continuation.resume()
            case .abandon: break
            }
        }

        /// Tells the loop this channel has something to do.
        func wake() { loop.markReady(ObjectIdentifier(self)) }

        // MARK: The loop's thread

        /// Whether the caller gave up on the handshake (cancelled).
        var isCancelled: Bool { shared.withLock { $0.cancelled } }

        /// The commands queued since the last call.
        func takeCommands() -> [Command] {
            shared.withLock { shared in
                defer { (shared.commands, shared.acceptedBytes, shared.wakePending) = ([], 0, false) }
                return shared.commands
            }
        }

        /// The opening ends with `error` before any loop took it (no thread for the loop).
        func failOpening(_ error: NetworkError) {
            opened(.failure(error))
            inbox.finish(throwing: WebSocketErrors.closed)
            _ = end()
        }

        /// The loop's unwritten bytes reached (or fell back under) its limit.
        func setBacklogged(_ backlogged: Bool) {
            shared.withLock { $0.backlogged = backlogged }
        }

        /// Ends the handshake wait with `result` (once).
        func opened(_ result: Result<WebSocketOpening, NetworkError>) {
            let continuation = shared.withLock { shared in
                defer { shared.opening = nil }
                return shared.opening
            }
            continuation?.resume(with: result.mapError { $0 as any Error })
        }

        /// Records the peer's close code and reason.
        func closed(code: WebSocket.CloseCode?, reason: String?) {
            shared.withLock { ($0.closeCode, $0.closeReason) = (code, reason) }
        }

        /// No more commands are taken; those still queued are returned to be refused, and every
        /// sender or pinger still waiting gets ``WebSocketErrors/closed``.
        func end() -> [Command] {
            let (commands, waiters) = shared.withLock { shared in
                shared.ended = true
                defer { (shared.commands, shared.waiters) = ([], [:]) }
                return (shared.commands, Array(shared.waiters.values))
            }
            for waiter in waiters { waiter.resume(throwing: WebSocketErrors.closed) }
            return commands
        }
    }
#endif
