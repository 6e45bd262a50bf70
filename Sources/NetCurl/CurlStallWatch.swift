#if canImport(CCurl)
    import NetToolbox
    import NetBase
    import Foundation
    import Synchronization

    /// The one thread of the process that looks at every curl loop for captivity (see
    /// ``CurlStallWatchdog``): every ``CurlStallWatchdog/tick`` while any loop has transfers, and
    /// not at all while none has.
    ///
    /// A loop cannot watch itself (while captive, no code of ours runs on its thread), so the look
    /// comes from here; one thread serves every loop of every transport, instead of one per loop.
    final class CurlStallWatch: Sendable {
        /// The process's watch, started with the first loop.
        static let shared = CurlStallWatch()

        private struct Loops {
            /// Every running loop, with what the watch saw on its previous looks.
            var watched: [ObjectIdentifier: (loop: CurlStallWatchdog, observation: StallObservation)] = [:]
        }

        private let loops = Locked(Loops())
        /// How many loops have transfers; the thread sleeps while none has.
        private let busyLoops = Atomic<Int>(0)
        private let wakeUp = DispatchSemaphore(value: 0)
        private let started = Atomic<Bool>(false)

        /// A loop starts: it will be looked at while busy.
        func register(_ loop: CurlStallWatchdog) {
            loops.withLock { $0.watched[ObjectIdentifier(loop)] = (loop, StallObservation()) }
            guard !started.exchange(true, ordering: .acquiringAndReleasing) else { return }
            let thread = Thread { [self] in watch() }
            thread.name = "NetKit.CurlTransport.watchdog"
            thread.start()
        }

        /// A loop ends (after its last ``loopBecame(busy:)`` to false).
        func unregister(_ loop: CurlStallWatchdog) {
            loops.withLock { _ = $0.watched.removeValue(forKey: ObjectIdentifier(loop)) }
        }

        /// Whether `loop` is among the loops this watch looks at (for tests).
        func isWatching(_ loop: CurlStallWatchdog) -> Bool {
            loops.withLock { $0.watched[ObjectIdentifier(loop)] != nil }
        }

        /// A loop got its first transfer (`busy`) or ended its last one.
        func loopBecame(busy: Bool) {
            if busy {
                if busyLoops.add(1, ordering: .acquiringAndReleasing).newValue == 1 { wakeUp.signal() }
            } else {
                busyLoops.subtract(1, ordering: .acquiringAndReleasing)
            }
        }

        private func watch() {
            while true {
                guard busyLoops.load(ordering: .acquiring) > 0 else {
                    // Forget half-seen stalls: the next busy period starts afresh.
                    loops.withLock { loops in
                        for index in loops.watched.values.indices { loops.watched.values[index].observation = StallObservation() }
                    }
                    wakeUp.wait()
                    continue
                }
                Thread.sleep(forTimeInterval: CurlStallWatchdog.tick.seconds)
                loops.withLock { loops in
                    // In place (through the values' indices): no copy of the table per look.
                    for index in loops.watched.values.indices {
                        let loop = loops.watched.values[index].loop
                        if loop.isBusy {
                            loop.look(&loops.watched.values[index].observation)
                        } else {
                            loops.watched.values[index].observation = StallObservation()
                        }
                    }
                }
            }
        }
    }
#endif
