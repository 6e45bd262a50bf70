#if canImport(CCurl)
    import NetBase
    import Foundation
    import Synchronization

    /// Frees the loop thread when one connection holds it inside libcurl.
    ///
    /// libcurl 7.88 reads an HTTP/2 connection in a loop until a body byte arrives for the transfer
    /// it serves: a server that keeps sending frames without body bytes (unknown types, empty DATA,
    /// PRIORITY, PING) keeps the loop thread inside `curl_multi_perform` for as long as it likes, and
    /// with it every deadline, cancellation and transfer of the transport. No callback of ours runs
    /// meanwhile, so the check has to come from another thread.
    ///
    /// Every ``tick`` this thread compares what the loop published: whether it is inside
    /// `curl_multi_perform` (and which call), and a heartbeat that every libcurl callback moves.
    /// When the loop has been inside the same call for ``stallTicks`` ticks with no callback, the
    /// watchdog measures how many bytes the application read from each socket; a socket read from
    /// while nothing was delivered is the captor, and it is severed (``CurlSocketRegistry/sever(_:reason:)``).
    /// A loop that is merely descheduled, or busy elsewhere, reads from no socket and is left alone.
    final class CurlStallWatchdog: Sendable {
        /// How often the watchdog looks.
        static let tick = Duration.milliseconds(10)
        /// How many looks without progress before sockets are measured; the stall is confirmed one
        /// look later, so a connection is cut after roughly (stallTicks + 1) × tick of captivity.
        static let stallTicks = 2

        private let sockets: CurlSocketRegistry
        /// Odd while the loop thread is inside `curl_multi_perform`; each call has its own value.
        private let performCall = Atomic<UInt64>(0)
        /// Moved by every libcurl callback (loop thread only writes it).
        private let heartbeat = Atomic<UInt64>(0)
        private let running = Atomic<Bool>(false)
        private let stopped = Atomic<Bool>(false)
        private let wakeUp = DispatchSemaphore(value: 0)

        init(sockets: CurlSocketRegistry) {
            self.sockets = sockets
            let thread = Thread { [self] in watch() }
            thread.name = "NetKit.CurlTransport.watchdog"
            thread.start()
        }

        // MARK: Loop thread

        /// The loop is about to call `curl_multi_perform`.
        @inline(__always)
        func enterPerform() {
            performCall.store(performCall.load(ordering: .relaxed) &+ 1, ordering: .releasing)
        }

        /// `curl_multi_perform` returned.
        @inline(__always)
        func leavePerform() {
            performCall.store(performCall.load(ordering: .relaxed) &+ 1, ordering: .releasing)
        }

        /// A libcurl callback ran: the loop delivers something, so it is not captive.
        @inline(__always)
        func beat() {
            heartbeat.store(heartbeat.load(ordering: .relaxed) &+ 1, ordering: .relaxed)
        }

        /// Whether transfers run; the watchdog sleeps while none do.
        func setBusy(_ busy: Bool) {
            guard running.exchange(busy, ordering: .acquiringAndReleasing) != busy, busy else { return }
            wakeUp.signal()
        }

        /// Ends the watchdog thread (loop thread, at shutdown).
        func stop() {
            stopped.store(true, ordering: .releasing)
            wakeUp.signal()
        }

        // MARK: Watchdog thread

        private func watch() {
            var observation = StallObservation()
            while !stopped.load(ordering: .acquiring) {
                guard running.load(ordering: .acquiring) else {
                    observation = StallObservation()
                    _ = wakeUp.wait(timeout: .now() + .seconds(1))
                    continue
                }
                Thread.sleep(forTimeInterval: Self.tick.seconds)
                let call = performCall.load(ordering: .acquiring)
                let beat = heartbeat.load(ordering: .relaxed)
                if let captive = observation.record(call: call, beat: beat, measure: sockets.bytesConsumed) {
                    sockets.sever(captive, reason: Self.floodError)
                }
            }
        }

        static let floodError = NetworkError.invalidResponse(
            reason: "the server kept sending without ever completing a response (an HTTP/2 frame flood, or endless headers); "
                + "the connection was closed")
    }

    /// What the watchdog saw on its previous looks (pure, tested without threads).
    struct StallObservation {
        private var call: UInt64 = 0
        private var beat: UInt64 = 0
        private var stillTicks = 0
        private var consumed: [CurlSocketRegistry.SocketID: Int64]?

        /// Records one look; returns the sockets to sever when the loop is confirmed captive.
        mutating func record(
            call: UInt64, beat: UInt64, measure: () -> [CurlSocketRegistry.SocketID: Int64]
        ) -> Set<CurlSocketRegistry.SocketID>? {
            defer { (self.call, self.beat) = (call, beat) }
            guard call & 1 == 1, call == self.call, beat == self.beat else {
                stillTicks = 0
                consumed = nil
                return nil
            }
            stillTicks += 1
            guard stillTicks >= CurlStallWatchdog.stallTicks else { return nil }
            let now = measure()
            defer { consumed = now }
            guard let before = consumed else { return nil }
            let captive = Set(now.compactMap { id, count in count > (before[id] ?? count) ? id : nil })
            return captive.isEmpty ? nil : captive
        }
    }
#endif
