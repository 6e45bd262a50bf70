#if canImport(CCurl)
    import NetToolbox
    import NetBase
    import CCurl
    import Foundation
    import Synchronization

    /// The thread-safe face of one of a transport's event loops: a command inbox and a wake-up
    /// descriptor (a transport has several, see ``CurlEngineGroup``).
    ///
    /// Everything libcurl touches (the multi handle, easy handles, transfers) lives on the loop
    /// thread in ``CurlLoop``; other threads only append commands here and wake the loop.
    final class CurlEngine: TaskExecutor {
        private struct Inbox {
            var commands: [CurlLoopCommand] = []
            /// The loop has stopped; tasks that still prefer it run on the global executor.
            var stopped = false
            /// The loop is (about to be) blocked in `curl_multi_poll`.
            var sleeping = false
            /// A wake-up byte was written since the loop went to sleep.
            var wakePending = false
        }

        private let inbox = Locked(Inbox())
        /// The loop thread, once it runs (for ``isLoopThread``).
        private let loopThread = Locked<pthread_t?>(nil)
        /// A non-blocking pipe whose read end the loop polls next to libcurl's sockets (the same
        /// mechanism as `curl_multi_wakeup`, without sharing the multi handle across threads).
        let wakeDescriptor: Int32
        private let wakeWriteDescriptor: Int32
        /// The sockets of this transport's connections (see ``CurlStallWatchdog``).
        let sockets = CurlSocketRegistry()
        /// Cuts off a connection that holds the loop thread captive inside libcurl.
        let watchdog: CurlStallWatchdog
        /// Transfers placed on this loop and not yet ended (queued ones included), for placement.
        private let transfers = Atomic<Int>(0)

        /// Starts loop `index` of `count`; the loops split the configuration's connection limits.
        init(index: Int, of count: Int, configuration: CurlTransport.Configuration) {
            CurlGlobal.ensureInitialized()
            guard let ends = NonBlockingPipe.make() else { preconditionFailure("NetCurl: pipe failed (errno \(errno))") }
            wakeDescriptor = ends.read
            wakeWriteDescriptor = ends.write
            watchdog = CurlStallWatchdog(sockets: sockets)
            let thread = Thread { [self] in
                CurlLoop(engine: self, configuration: configuration, loopCount: count).run()
            }
            thread.name = index == 0 ? "NetKit.CurlTransport" : "NetKit.CurlTransport.\(index)"
            thread.start()
        }

        /// How many transfers this loop has (placed and not yet ended).
        var load: Int { transfers.load(ordering: .relaxed) }

        /// A transfer was placed on this loop.
        func transferStarted() { transfers.add(1, ordering: .relaxed) }

        /// A transfer placed on this loop ended, whichever way (each exactly once).
        func transferEnded() { transfers.subtract(1, ordering: .relaxed) }

        /// Queues `command`, waking the loop only when it sleeps (a busy loop picks it up anyway).
        func submit(_ command: CurlLoopCommand) {
            enum Outcome { case queued, wake, stopped }
            let outcome = inbox.withLock { inbox -> Outcome in
                if inbox.stopped { return .stopped }
                inbox.commands.append(command)
                guard inbox.sleeping, !inbox.wakePending else { return .queued }
                inbox.wakePending = true
                return .wake
            }
            switch outcome {
            case .queued:
                break
            case .wake:
                var byte: UInt8 = 1
                _ = write(wakeWriteDescriptor, &byte, 1)
            case .stopped:
                // The transport is gone; only tasks that still prefer its executor should get here.
                settleAfterStop(command)
            }
        }

        /// Ends a command the stopped loop will never run: a request fails with `.cancelled`, a
        /// task moves to the global concurrent executor, the rest needs nothing.
        func settleAfterStop(_ command: CurlLoopCommand) {
            switch command {
            case .start(var job):
                transferEnded()
                job.end(.failure(NetworkError.cancelled))
            case .run(let job): globalConcurrentExecutor.enqueue(ExecutorJob(job))
            case .cancel, .unpause, .shutdown: break
            }
        }

        /// Runs a task that prefers this executor on the loop thread, next to libcurl's work.
        func enqueue(_ job: consuming ExecutorJob) {
            submit(.run(UnownedJob(job)))
        }

        /// Records the calling thread as the loop thread (loop thread, at start).
        func markLoopThread() {
            let current = pthread_self()
            loopThread.withLock { $0 = current }
        }

        /// Whether the caller runs on the loop thread.
        var isLoopThread: Bool {
            guard let thread = loopThread.withLock({ $0 }) else { return false }
            return pthread_equal(thread, pthread_self()) != 0
        }

        /// Marks the loop stopped and returns what was still queued (loop thread, at shutdown).
        func stop() -> [CurlLoopCommand] {
            inbox.withLock { inbox in
                inbox.stopped = true
                defer { inbox.commands.removeAll() }
                return inbox.commands
            }
        }

        /// Whether commands are queued (loop thread).
        var hasCommands: Bool { inbox.withLock { !$0.commands.isEmpty } }

        /// Takes every queued command (loop thread).
        func takeCommands() -> [CurlLoopCommand] {
            inbox.withLock { inbox in
                guard !inbox.commands.isEmpty else { return [] }
                let commands = inbox.commands
                inbox.commands.removeAll(keepingCapacity: true)
                return commands
            }
        }

        /// Marks the loop as sleeping unless commands are waiting; false means "do not sleep" (loop thread).
        func prepareToSleep() -> Bool {
            inbox.withLock { inbox in
                guard inbox.commands.isEmpty else { return false }
                inbox.sleeping = true
                return true
            }
        }

        /// The loop is awake again; `signalled` when the wake-up descriptor was readable (loop thread).
        func didWake(signalled: Bool) {
            inbox.withLock { inbox in
                inbox.sleeping = false
                inbox.wakePending = false
            }
            if signalled {
                // One read is enough: `wakePending` lets at most one byte in per sleep. Anything left
                // over only makes the next poll return at once, and that wake-up reads it.
                var buffer = (UInt64(0), UInt64(0), UInt64(0), UInt64(0))
                _ = withUnsafeMutableBytes(of: &buffer) { read(wakeDescriptor, $0.baseAddress, $0.count) }
            }
        }

        /// Asks the loop to finish; it releases libcurl and closes the descriptor.
        func shutdown() { submit(.shutdown) }

        /// Closes the pipe (loop thread, at shutdown: no submit can follow).
        func closeDescriptors() {
            close(wakeDescriptor)
            close(wakeWriteDescriptor)
        }
    }
#endif
