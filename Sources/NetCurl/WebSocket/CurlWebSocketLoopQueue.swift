#if canImport(CCurl)
    import NetWebSocketCore
    import NetToolbox
    import NetBase
    import Foundation

    /// What other threads hand one WebSocket loop (``CurlWebSocketLoop``): connections to open and
    /// channels that have something to do (a command, a cancel, room in the inbox), with the pipe
    /// that wakes the loop. The loop's thread starts with the first connection.
    final class CurlWebSocketLoopQueue: Sendable {
        /// What a new connection needs; the loop thread builds its ``CurlWebSocketSession``.
        struct Opening: Sendable {
            let channel: CurlWebSocketChannel
            let request: Request
            let handshake: WebSocketHandshake
            let settings: WebSocketConfiguration
            let transport: CurlTransport.Configuration
        }

        private struct Shared {
            var openings: [Opening] = []
            var ready: [ObjectIdentifier] = []
            /// A byte is in the pipe that the loop has not taken yet: one wake-up is enough.
            var signalled = false
            var threadStarted = false
        }

        /// The loop's number, for its thread's name.
        let index: Int
        private let shared = Locked(Shared())
        /// Wakes the loop from its poll.
        let wakePipe: CurlWebSocketWakePipe

        init(index: Int) throws(NetworkError) {
            self.index = index
            wakePipe = try CurlWebSocketWakePipe()
        }

        /// Hands `opening` to the loop, starting the loop's thread first if it is not running.
        /// - Throws: ``NetworkError/transport(reason:underlying:)`` when the system refuses the thread.
        func open(_ opening: Opening) throws(NetworkError) {
            let mustStart = shared.withLock { shared in
                defer { shared.threadStarted = true }
                return !shared.threadStarted
            }
            if mustStart {
                do {
                    try CurlWebSocketThread.start(name: "NetKit.WS.\(index)") { [self] in CurlWebSocketLoop(queue: self).run() }
                } catch {
                    // Openings other callers queued meanwhile have no thread either: they fail too.
                    let stranded = shared.withLock { shared in
                        shared.threadStarted = false
                        defer { shared.openings = [] }
                        return shared.openings
                    }
                    for opening in stranded { opening.channel.failOpening(error) }
                    throw error
                }
            }
            let wake = shared.withLock { shared in
                shared.openings.append(opening)
                return Self.signal(&shared)
            }
            if wake { wakePipe.wake() }
        }

        /// Tells the loop that `channel` has something to do.
        func markReady(_ channel: ObjectIdentifier) {
            let wake = shared.withLock { shared in
                shared.ready.append(channel)
                return Self.signal(&shared)
            }
            if wake { wakePipe.wake() }
        }

        /// The loop thread takes what was handed over since its last call (the loop empties the
        /// wake pipe when its poll says the pipe is readable).
        func take() -> (openings: [Opening], ready: [ObjectIdentifier]) {
            shared.withLock { shared in
                defer { (shared.openings, shared.ready, shared.signalled) = ([], [], false) }
                return (shared.openings, shared.ready)
            }
        }

        /// Whether the caller must write the wake byte (nobody has since the loop last took).
        private static func signal(_ shared: inout Shared) -> Bool {
            defer { shared.signalled = true }
            return !shared.signalled
        }
    }

    /// The WebSocket loops of the process: one per core, each started with its first connection,
    /// connections spread over them in turn.
    enum CurlWebSocketLoops {
        private static let queues = Locked<[CurlWebSocketLoopQueue]>([])
        private static let turn = Locked(0)

        /// How many loops there are at most: one per core.
        static let count = max(1, ProcessInfo.processInfo.activeProcessorCount)

        /// The queue of the loop that takes the next connection.
        /// - Throws: ``NetworkError/transport(reason:underlying:)`` when a loop's wake pipe cannot be made.
        static func next() throws(NetworkError) -> CurlWebSocketLoopQueue {
            let index = turn.withLock { turn in
                defer { turn = (turn + 1) % count }
                return turn
            }
            let result: Result<CurlWebSocketLoopQueue, NetworkError> = queues.withLock { queues in
                while queues.count <= index {
                    do throws(NetworkError) {
                        queues.append(try CurlWebSocketLoopQueue(index: queues.count))
                    } catch {
                        return .failure(error)
                    }
                }
                return .success(queues[index])
            }
            return try result.get()
        }
    }
#endif
