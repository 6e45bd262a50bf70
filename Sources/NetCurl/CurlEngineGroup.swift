#if canImport(CCurl)
    import NetToolbox
    import NetBase
    import Foundation

    /// A transport's event loops: several ``CurlEngine``s, each with its own thread, libcurl multi
    /// handle, connections, wake pipe and stall watchdog, and the placement of new transfers on
    /// them (``CurlLoopPlacement``).
    ///
    /// Loops share nothing but this placement, so a loop held captive (a hostile server, a task
    /// blocking the executor's thread) delays only the transfers already on it.
    final class CurlEngineGroup: Sendable {
        /// The loops; the first one also serves as the transport's task executor.
        let engines: [CurlEngine]
        private let placement = Locked(CurlLoopPlacement())

        init(configuration: CurlTransport.Configuration) {
            let count = Self.loopCount(configuration.eventLoops)
            engines = (0..<count).map { CurlEngine(index: $0, of: count, configuration: configuration) }
        }

        /// How many loops a configuration asks for: its own number, or one per active core (as
        /// SwiftNIO), at most ``maxDefaultLoops``. Loops pulling bulk bodies give way to ready
        /// threads on every pass and fire deadlines before bulk bytes (``CurlLoop``), so the
        /// callers keep their share of the cores.
        static func loopCount(_ configured: Int, cores: Int = ProcessInfo.processInfo.activeProcessorCount) -> Int {
            configured > 0 ? configured : min(max(1, cores), maxDefaultLoops)
        }

        /// The most loops the default makes: each loop gets its share of the connection limits,
        /// and on a 64-core machine a share of 16 connections per host would be 1 per loop (and
        /// 64 in all), with a keep-alive cache of 2 per loop.
        static let maxDefaultLoops = 8

        /// The loop that runs tasks preferring ``CurlTransport/executor``.
        var executorEngine: CurlEngine { engines[0] }

        /// Picks the loop for a new transfer and counts the transfer on it (the loop counts it off
        /// when the transfer ends, ``CurlEngine/transferEnded()``). A caller running on the
        /// executor's loop thread keeps its transfer there: it chose the executor to skip the
        /// hand-offs between threads.
        func engine(for request: Request, head: CurlRequestHead) -> CurlEngine {
            guard engines.count > 1, !executorEngine.isLoopThread else {
                engines[0].transferStarted()
                return engines[0]
            }
            let key = Self.connectionKey(request, head: head)
            let engines = self.engines
            let index = placement.withLock { placement in
                withUnsafeTemporaryAllocation(of: Int.self, capacity: engines.count) { loads in
                    for (index, engine) in engines.enumerated() { loads.initializeElement(at: index, to: engine.load) }
                    let chosen = placement.choose(key: key, loads: UnsafeBufferPointer(loads))
                    // Counted under the lock, so that a burst of placements sees each other.
                    engines[chosen].transferStarted()
                    return chosen
                }
            }
            return engines[index]
        }

        /// What decides whether two transfers may share a connection: the origin (the URL up to
        /// its path), the TLS policy and the proxy. A hash: a collision only costs a reuse.
        static func connectionKey(_ request: Request, head: CurlRequestHead) -> Int {
            var hasher = Hasher()
            var slashes = 0
            for byte in head.url.utf8 {
                if byte == 0x2F {  // "/": the third one starts the path
                    slashes += 1
                    if slashes == 3 { break }
                }
                hasher.combine(byte)
            }
            hasher.combine(request.tls)
            hasher.combine(request.proxy)
            return hasher.finalize()
        }

        /// Asks every loop to finish.
        func shutdown() {
            for engine in engines { engine.shutdown() }
        }
    }
#endif
