#if canImport(CCurl)
    import NetBase
    import Foundation

    /// The thread-safe face of one curl WebSocket: callers append commands and wake the
    /// connection's I/O thread (``CurlWebSocketLoop``), which alone touches libcurl and the socket.
    final class CurlWebSocketChannel: WebSocketConnection {
        /// What a caller asked for, carried out on the I/O thread.
        enum Command {
            case send(WebSocket.Message, CheckedContinuation<Void, any Error>)
            case ping(CheckedContinuation<Void, any Error>)
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
        }

        let inbox: WebSocketInbox
        private let shared = Locked(Shared())
        /// Wakes the I/O thread from its poll.
        let wakePipe = CurlWebSocketWakePipe()

        init(inboxCapacity: Int) {
            inbox = WebSocketInbox(capacity: inboxCapacity)
        }

        // MARK: Callers

        func send(_ message: WebSocket.Message) async throws {
            try await withCheckedThrowingContinuation { submit(.send(message, $0)) }
        }

        func ping() async throws {
            try await withCheckedThrowingContinuation { submit(.ping($0)) }
        }

        func close(_ code: WebSocket.CloseCode, reason: String) async {
            await withCheckedContinuation { submit(.close(code, reason, $0)) }
        }

        func abandon() { submit(.abandon) }

        var closeCode: WebSocket.CloseCode? { shared.withLock { $0.closeCode } }
        var closeReason: String? { shared.withLock { $0.closeReason } }

        /// Waits for the I/O thread's handshake; cancelling the task stops it.
        func open(start: () -> Void) async throws -> WebSocketOpening {
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    shared.withLock { $0.opening = continuation }
                    start()
                }
            } onCancel: {
                shared.withLock { $0.cancelled = true }
                wake()
            }
        }

        private func submit(_ command: Command) {
            let accepted = shared.withLock { shared in
                guard !shared.ended else { return false }
                shared.commands.append(command)
                return true
            }
            if accepted { return wake() }
            switch command {
            case .send(_, let continuation), .ping(let continuation): continuation.resume(throwing: WebSocketErrors.closed)
            case .close(_, _, let continuation): continuation.resume()
            case .abandon: break
            }
        }

        /// Wakes the I/O thread.
        func wake() { wakePipe.wake() }

        // MARK: The I/O thread

        /// Whether the caller gave up on the handshake (cancelled).
        var isCancelled: Bool { shared.withLock { $0.cancelled } }

        /// The commands queued since the last call.
        func takeCommands() -> [Command] {
            wakePipe.drain()
            return shared.withLock { shared in
                defer { shared.commands = [] }
                return shared.commands
            }
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

        /// No more commands are taken; those still queued are returned to be refused.
        func end() -> [Command] {
            shared.withLock { shared in
                shared.ended = true
                defer { shared.commands = [] }
                return shared.commands
            }
        }
    }
#endif
