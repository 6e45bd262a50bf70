#if canImport(CCurl)
    import NetBase
    import Foundation
    import Synchronization

    /// What one loop shows the process's stall watch (``CurlStallWatch``), so that a connection
    /// holding the loop thread captive inside libcurl can be cut off.
    ///
    /// libcurl 7.88 reads an HTTP/2 connection in a loop until a body byte arrives for the transfer
    /// it serves: a server that keeps sending frames without body bytes (unknown types, empty DATA,
    /// PRIORITY, PING) keeps the loop thread inside `curl_multi_perform` for as long as it likes, and
    /// with it every deadline, cancellation and transfer of the loop. No callback of ours runs
    /// meanwhile, so a captive loop cannot see its own captivity: the look has to come from another
    /// thread. That thread is one for the whole process (``CurlStallWatch``), not one per loop.
    ///
    /// The loop publishes whether it is inside `curl_multi_perform` (and which call), and a
    /// heartbeat that every libcurl callback moves. When the loop has been inside the same call for
    /// ``stallTicks`` looks with no callback, the watch measures how many bytes the application read
    /// from each of the loop's sockets; a socket that gave up more than
    /// ``StallObservation/floodBytes`` while nothing was delivered is the captor, and it is severed
    /// (``CurlSocketRegistry/sever(_:reason:)``). The loop gives the severed connections' transfers
    /// the reason after its pass. A loop that is merely descheduled, or busy elsewhere, reads from no
    /// socket and is left alone.
    final class CurlStallWatchdog: Sendable {
        /// How often the watch looks while a loop has transfers.
        static let tick = Duration.milliseconds(10)
        /// How many looks without progress before sockets are measured; the stall is confirmed one
        /// look later, so a connection is cut after roughly (stallTicks + 1) × tick of captivity.
        static let stallTicks = 2

        let sockets: CurlSocketRegistry
        /// Odd while the loop thread is inside `curl_multi_perform`; each call has its own value.
        private let performCall = Atomic<UInt64>(0)
        /// Moved by every libcurl callback (loop thread only writes it).
        private let heartbeat = Atomic<UInt64>(0)
        /// Whether the loop has transfers (only then does the watch look at it).
        private let running = Atomic<Bool>(false)
        /// The watch that looks at this loop (the process's one).
        let watch: CurlStallWatch

        init(sockets: CurlSocketRegistry, watch: CurlStallWatch = .shared) {
            self.sockets = sockets
            self.watch = watch
            watch.register(self)
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

        /// Whether transfers run; the watch looks at busy loops only, and sleeps while none is.
        func setBusy(_ busy: Bool) {
            guard running.exchange(busy, ordering: .acquiringAndReleasing) != busy else { return }
            watch.loopBecame(busy: busy)
        }

        /// The loop ends: the watch forgets it (loop thread, at shutdown).
        func stop() {
            setBusy(false)
            watch.unregister(self)
        }

        // MARK: Watch thread

        /// Whether the loop has transfers.
        var isBusy: Bool { running.load(ordering: .acquiring) }

        /// One look at the loop: cuts off the sockets `observation` judges captors.
        func look(_ observation: inout StallObservation) {
            let call = performCall.load(ordering: .acquiring)
            let beat = heartbeat.load(ordering: .relaxed)
            if let captive = observation.record(call: call, beat: beat, measure: sockets.bytesConsumed) {
                sockets.sever(captive, reason: Self.floodError)
            }
        }

        static let floodError = NetworkError.invalidResponse(
            reason: "the server kept sending without ever completing a response (an HTTP/2 frame flood, or endless headers); "
                + "the connection was closed")
    }

    /// What the watchdog saw on its previous looks (pure, tested without threads).
    struct StallObservation {
        /// How many bytes a socket must give up inside one callback-free `curl_multi_perform`
        /// before it is judged a flood. A TLS handshake also reads inside `curl_multi_perform`
        /// without any callback of ours (the server's certificate chain: a few KiB), and on a loaded
        /// machine, or under a sanitizer, it can take longer than the stall ticks; a flood keeps the
        /// socket readable, so it passes this volume within milliseconds on any link that can hold
        /// the loop captive.
        static let floodBytes: Int64 = 32 * 1024

        private var call: UInt64 = 0
        private var beat: UInt64 = 0
        private var stillTicks = 0
        /// Bytes read per socket at the first measure of the current stall.
        private var baseline: [CurlSocketRegistry.SocketID: Int64]?

        /// Records one look; returns the sockets to sever when the loop is confirmed captive.
        mutating func record(
            call: UInt64, beat: UInt64, measure: () -> [CurlSocketRegistry.SocketID: Int64]
        ) -> Set<CurlSocketRegistry.SocketID>? {
            defer { (self.call, self.beat) = (call, beat) }
            guard call & 1 == 1, call == self.call, beat == self.beat else {
                stillTicks = 0
                baseline = nil
                return nil
            }
            stillTicks += 1
            guard stillTicks >= CurlStallWatchdog.stallTicks else { return nil }
            let now = measure()
            guard let before = baseline else {
                baseline = now
                return nil
            }
            let captive = Set(now.compactMap { id, count in count - (before[id] ?? count) >= Self.floodBytes ? id : nil })
            return captive.isEmpty ? nil : captive
        }
    }
#endif
