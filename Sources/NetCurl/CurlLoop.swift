#if canImport(CCurl)
    import NetToolbox
    import NetBase
    import CCurl
    import Foundation

    /// One event loop: owns its multi handle (and with it its connections), its pool of easy
    /// handles and its running transfers. Lives on one thread, the only one that calls libcurl
    /// for this loop (a transport has several, see ``CurlEngineGroup``).
    final class CurlLoop {
        private let engine: CurlEngine
        private let configuration: CurlTransport.Configuration
        private let multi: UnsafeMutableRawPointer
        private var idleHandles: [CurlHandle] = []
        private var active: [ObjectIdentifier: CurlTransfer] = [:]
        /// Transfers that paused to let others through; resumed at the start of the next pass.
        private var yielded: [CurlTransfer] = []
        private static let maxIdleHandles = 256

        /// A loop of `loopCount`: each gets its share of the connection limits, rounded up.
        init(engine: CurlEngine, configuration: CurlTransport.Configuration, loopCount: Int) {
            self.engine = engine
            self.configuration = configuration
            guard let multi = curl_multi_init() else { fatalError("NetCurl: curl_multi_init failed") }
            self.multi = multi
            func share(_ limit: Int) -> Int { limit > 0 ? (limit + loopCount - 1) / loopCount : 0 }
            let perHost = share(configuration.maxConnectionsPerHost), total = share(configuration.maxTotalConnections)
            _ = netkit_multi_setopt_long(multi, CURLMOPT_PIPELINING, Int(CURLPIPE_MULTIPLEX))
            _ = netkit_multi_setopt_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, perHost)
            _ = netkit_multi_setopt_long(multi, CURLMOPT_MAX_TOTAL_CONNECTIONS, total)
            // Keep every idle connection the limits allow, so bursts reuse them instead of reconnecting.
            _ = netkit_multi_setopt_long(multi, CURLMOPT_MAXCONNECTS, total > 0 ? total : 1024)
        }

        func run() {
            engine.markLoopThread()
            var running: Int32 = 0
            var wakeup = curl_waitfd(fd: engine.wakeDescriptor, events: Int16(CURL_WAIT_POLLIN), revents: 0)
            while true {
                if let leftovers = handleCommands() {
                    tearDown(leftovers: leftovers)
                    return
                }
                // Deadlines before bulk bodies: a transfer past its deadline ends (and its caller
                // runs) before the transfers that yielded get the CPU again.
                expireOverdue()
                if !yielded.isEmpty {
                    // Bulk bodies take what CPU is left: whatever thread is ready on this core
                    // (a caller's task, another loop) runs first.
                    sched_yield()
                    resumeYielded()
                }
                engine.watchdog.enterPerform()
                _ = curl_multi_perform(multi, &running)
                engine.watchdog.leavePerform()
                blameSeveredConnections()
                collectFinished()
                expireOverdue()
                collectYielded()
                engine.watchdog.setBusy(!active.isEmpty)
                guard yielded.isEmpty else { continue }
                if configuration.effectiveBusyPoll > .zero, pollBriefly() { continue }
                guard engine.prepareToSleep() else { continue }
                wakeup.revents = 0
                var ready: Int32 = 0
                // While transfers run, wake in time for the next deadline.
                _ = curl_multi_poll(multi, &wakeup, 1, pollMilliseconds(), &ready)
                engine.didWake(signalled: wakeup.revents != 0)
            }
        }

        /// Polls without blocking for ``CurlTransport/Configuration/busyPoll``; true as soon as a
        /// command or a socket is ready, false when the window passed (the loop then sleeps).
        private func pollBriefly() -> Bool {
            let end = ContinuousClock.now + configuration.effectiveBusyPoll
            repeat {
                if engine.hasCommands { return true }
                // libcurl may want to run again with no socket ready (HTTP/2 frames it read for
                // another stream, a transfer released from the connection queue): its timer says so.
                var due = -1
                _ = curl_multi_timeout(multi, &due)
                if due == 0 { return true }
                var ready: Int32 = 0
                _ = curl_multi_poll(multi, nil, 0, 0, &ready)
                if ready > 0 { return true }
            } while ContinuousClock.now < end
            return false
        }

        /// Runs queued commands; on shutdown, returns the commands queued behind it.
        private func handleCommands() -> [CurlLoopCommand]? {
            let commands = engine.takeCommands()
            for (index, command) in commands.enumerated() {
                switch command {
                case .start(let job): start(job)
                case .cancel(let token): cancel(token)
                case .unpause(let token): unpause(token)
                case .run(let job): job.runSynchronously(on: engine.asUnownedTaskExecutor())
                case .shutdown:
                    return Array(commands[(index + 1)...])
                }
            }
            return nil
        }

        /// Ends a job that never became a running transfer.
        private func fail(_ job: consuming CurlJob, _ error: any Error) {
            engine.transferEnded()
            job.end(.failure(error))
        }

        private func start(_ job: CurlJob) {
            if job.token.isCancelled {
                fail(job, NetworkError.cancelled)
                return
            }
            let handle: CurlHandle
            if let pooled = idleHandles.popLast() {
                handle = pooled
            } else if let fresh = CurlHandle() {
                handle = fresh
            } else {
                fail(job, NetworkError.transport(reason: "libcurl could not create a transfer handle (out of memory?)"))
                return
            }
            let transfer = CurlTransfer(job: job, handle: handle, configuration: configuration, engine: engine)
            // From here on the transfer holds the job, and only it answers.
            do {
                try transfer.configure()
            } catch {
                transfer.abandon()
                recycle(handle)
                transfer.complete(.failure(error))
                return
            }
            let code = curl_multi_add_handle(multi, handle.easy)
            guard code == CURLM_OK else {
                transfer.abandon()
                recycle(handle)
                transfer.complete(.failure(NetworkError.transport(reason: "libcurl refused the transfer (CURLMcode \(code.rawValue))")))
                return
            }
            active[ObjectIdentifier(job.token)] = transfer
            nextDeadlineCheck = min(nextDeadlineCheck, job.deadline)
            // Watched from its first perform: a pooled connection may already hold a flood.
            engine.watchdog.setBusy(true)
        }

        private func cancel(_ token: CurlJobToken) {
            guard let transfer = active.removeValue(forKey: ObjectIdentifier(token)) else { return }
            _ = curl_multi_remove_handle(multi, transfer.handle.easy)
            transfer.abandon()
            recycle(transfer.handle)
            transfer.complete(.failure(NetworkError.cancelled))
        }

        /// Notes the transfers that paused to let others through in this pass.
        private func collectYielded() {
            for transfer in active.values where transfer.hasYielded { yielded.append(transfer) }
        }

        /// Resumes the transfers that yielded in the previous pass (libcurl hands each its held
        /// bytes at once, inside `curl_easy_pause`).
        private func resumeYielded() {
            guard !yielded.isEmpty else { return }
            let resuming = yielded
            yielded.removeAll(keepingCapacity: true)
            for transfer in resuming where active[ObjectIdentifier(transfer.job.token)] === transfer {
                transfer.resumedAfterYield()
                _ = curl_easy_pause(transfer.handle.easy, CURLPAUSE_CONT)
                transfer.tookHeldBytes()
            }
        }

        /// Resumes a stream paused for backpressure (libcurl may deliver buffered data at once).
        private func unpause(_ token: CurlJobToken) {
            guard let transfer = active[ObjectIdentifier(token)], transfer.isPaused else { return }
            transfer.resumed()
            _ = curl_easy_pause(transfer.handle.easy, CURLPAUSE_CONT)
        }

        /// How often running transfers are checked against their deadlines at the least (a
        /// stream's idle timeout moves with its bytes, so it is checked on this beat).
        private static let deadlineCheckInterval = Duration.milliseconds(25)
        /// When the loop checks deadlines next: the earliest deadline of a transfer, or the beat.
        private var nextDeadlineCheck = ContinuousClock.now

        /// The poll timeout: up to the next deadline check while transfers run, else a second.
        private func pollMilliseconds() -> Int32 {
            guard !active.isEmpty else { return 1000 }
            let wait = nextDeadlineCheck - ContinuousClock.now
            return wait <= .zero ? 0 : Int32(min(wait, Self.deadlineCheckInterval).millisecondsRoundedUp)
        }

        /// Ends transfers past their deadline with `.timedOut`, and notes when the next one is due.
        /// libcurl's own timeout covers a running transfer; this also covers one still waiting for a
        /// connection under the limits, and fires on this loop's next pass whatever libcurl does.
        private func expireOverdue() {
            let now = ContinuousClock.now
            guard now >= nextDeadlineCheck, !active.isEmpty else { return }
            var next = now + Self.deadlineCheckInterval
            for (key, transfer) in active {
                guard transfer.isOverdue(at: now) else {
                    if !transfer.headDelivered { next = min(next, transfer.job.deadline) }
                    continue
                }
                active.removeValue(forKey: key)
                _ = curl_multi_remove_handle(multi, transfer.handle.easy)
                transfer.abandon()
                recycle(transfer.handle)
                transfer.complete(.failure(NetworkError.timedOut))
            }
            nextDeadlineCheck = next
        }

        /// Gives the transfers of connections the watchdog cut off the reason, before libcurl
        /// reports them failed (it sees only a dead socket).
        private func blameSeveredConnections() {
            let severed = engine.sockets.takeSevered()
            guard !severed.isEmpty else { return }
            for transfer in active.values {
                if let socket = transfer.socketID, let reason = severed[socket] { transfer.blame(reason) }
            }
        }

        private func collectFinished() {
            var remaining: Int32 = 0
            while let message = curl_multi_info_read(multi, &remaining) {
                guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle else { continue }
                let code = message.pointee.data.result
                var context: UnsafeMutableRawPointer?
                _ = netkit_easy_getinfo_ptr(easy, CURLINFO_PRIVATE, &context)
                guard let context, let running = Unmanaged<CurlHandleSlot>.fromOpaque(context).takeUnretainedValue().transfer else { continue }
                let transfer = running.takeUnretainedValue()
                active.removeValue(forKey: ObjectIdentifier(transfer.job.token))
                _ = curl_multi_remove_handle(multi, easy)
                let result = transfer.finish(code)
                recycle(transfer.handle)
                transfer.complete(result)
            }
        }

        private func recycle(_ handle: CurlHandle) {
            if idleHandles.count < Self.maxIdleHandles {
                handle.reset()
                idleHandles.append(handle)
            } else {
                handle.destroy()
            }
        }

        /// Releases libcurl and settles `leftovers` (commands queued behind `.shutdown`) and
        /// whatever arrives before the engine is marked stopped.
        private func tearDown(leftovers: [CurlLoopCommand]) {
            engine.watchdog.stop()
            for command in leftovers + engine.stop() { engine.settleAfterStop(command) }
            for transfer in active.values {
                _ = curl_multi_remove_handle(multi, transfer.handle.easy)
                transfer.abandon()
                transfer.handle.destroy()
                transfer.complete(.failure(NetworkError.cancelled))
            }
            active.removeAll()
            for handle in idleHandles { handle.destroy() }
            idleHandles.removeAll()
            _ = curl_multi_cleanup(multi)
            engine.closeDescriptors()
        }
    }
#endif
