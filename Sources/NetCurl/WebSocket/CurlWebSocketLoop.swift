#if canImport(CCurl)
    import NetToolbox
    import NetBase
    import CCurl
    import Foundation

    /// One WebSocket loop: a thread that runs any number of curl WebSockets
    /// (``CurlWebSocketSession``), one of them per core in the process (``CurlWebSocketLoops``).
    ///
    /// libcurl connects them on the loop's multi handle (TCP, proxy, TLS: nothing blocks); once
    /// connected, their sockets wait in the loop's epoll set, registered only for what the session
    /// wants (read while it may read, write while bytes wait), and the epoll descriptor itself is
    /// one of the descriptors `curl_multi_poll` waits on, beside the wake pipe. So a connection
    /// costs one descriptor and no thread, and an idle one costs nothing per turn of the loop.
    /// Deadlines (handshake, close, ping) sit in a heap (``CurlWebSocketTimers``).
    final class CurlWebSocketLoop {
        private let queue: CurlWebSocketLoopQueue
        private let multi: UnsafeMutableRawPointer
        private let epoll: Int32
        private var sessions: [ObjectIdentifier: CurlWebSocketSession] = [:]
        /// The sessions by the key their socket carries in the epoll set.
        private var byKey: [UInt64: ObjectIdentifier] = [:]
        /// The sessions whose easy handle is connecting, by the handle's address.
        private var connecting: [UInt: ObjectIdentifier] = [:]
        /// What each connected session's socket is registered for in the epoll set.
        private var registered: [ObjectIdentifier: (descriptor: Int32, events: UInt32)] = [:]
        private var timers = CurlWebSocketTimers()
        /// The deadline each session has in `timers` now, with its generation.
        private var scheduled: [ObjectIdentifier: (deadline: ContinuousClock.Instant, generation: UInt64)] = [:]
        private var generation: UInt64 = 0
        /// Sessions to step again at once.
        private var again: Set<ObjectIdentifier> = []
        /// The read buffer every session borrows for its step.
        private var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        private var readyKeys = [UInt64](repeating: 0, count: 256)
        private var readyEvents = [UInt32](repeating: 0, count: 256)

        init(queue: CurlWebSocketLoopQueue) {
            self.queue = queue
            CurlGlobal.ensureInitialized()
            guard let multi = curl_multi_init() else { fatalError("NetCurl: curl_multi_init failed") }
            self.multi = multi
            // Connect-only connections are never shared; keep each open for its session.
            _ = netkit_multi_setopt_long(multi, CURLMOPT_MAXCONNECTS, 1 << 20)
            epoll = netkit_epoll_create()
            // Without an epoll set the loop still connects and hands back errors: registering fails.
        }

        /// Runs forever on the loop's own thread.
        func run() {
            // The wake pipe waits in the epoll set too (key 0: no session has it), so while nothing
            // is connecting one epoll_wait is the whole wait.
            let watchingWakes = epoll >= 0 && netkit_epoll_control(epoll, EPOLL_CTL_ADD, queue.wakePipe.readDescriptor, netkit_epoll_in, 0) == 0
            var waits = [curl_waitfd(fd: watchingWakes ? epoll : queue.wakePipe.readDescriptor, events: Int16(CURL_WAIT_POLLIN), revents: 0)]
            while true {
                let (openings, ready) = queue.take()
                for opening in openings { adopt(opening, watchingWakes: watchingWakes) }
                if !connecting.isEmpty {
                    var running: Int32 = 0
                    _ = curl_multi_perform(multi, &running)
                    collectConnected()
                }
                for id in ready { step(id) }
                let repeats = again
                again = []
                for id in repeats { step(id) }
                fireTimers()
                let timeout = again.isEmpty ? waitMilliseconds() : 0
                if connecting.isEmpty, watchingWakes {
                    waitForSockets(milliseconds: timeout)
                } else {
                    // libcurl's connecting sockets are its own: it polls them beside the epoll set.
                    var count: Int32 = 0
                    waits[0].revents = 0
                    _ = curl_multi_poll(multi, &waits, 1, timeout, &count)
                    if !watchingWakes, waits[0].revents != 0 { queue.wakePipe.drain() }
                    waitForSockets(milliseconds: 0)
                }
            }
        }

        // MARK: Sessions

        private func adopt(_ opening: CurlWebSocketLoopQueue.Opening, watchingWakes: Bool) {
            let session = CurlWebSocketSession(opening)
            guard let easy = session.easy, !session.hasEnded else { return }
            guard watchingWakes else {
                // Without its epoll set the loop cannot watch a connection: say so, once per open.
                _ = session.abort(.transport(reason: "the WebSocket loop has no epoll descriptor (the system refused it); nothing was sent"))
                curl_easy_cleanup(easy)
                return
            }
            let id = ObjectIdentifier(session.channel)
            sessions[id] = session
            byKey[Self.key(id)] = id
            connecting[UInt(bitPattern: easy)] = id
            let added = curl_multi_add_handle(multi, easy)
            if added != CURLM_OK {
                connecting.removeValue(forKey: UInt(bitPattern: easy))
                apply(session.endOpening(.failure(.transport(reason: "libcurl could not start the WebSocket's connection (CURLM \(added.rawValue))"))), to: id)
            }
        }

        private func collectConnected() {
            var remaining: Int32 = 0
            while let message = curl_multi_info_read(multi, &remaining) {
                guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle,
                    let id = connecting.removeValue(forKey: UInt(bitPattern: easy)), let session = sessions[id]
                else { continue }
                apply(session.connected(message.pointee.data.result, buffer: &buffer), to: id)
            }
        }

        /// Waits up to `milliseconds` for the epoll set, then steps each session whose socket is
        /// ready (and empties the wake pipe when it is the one).
        private func waitForSockets(milliseconds: Int32) {
            guard epoll >= 0 else { return }
            let count = readyKeys.withUnsafeMutableBufferPointer { keys in
                readyEvents.withUnsafeMutableBufferPointer { events in
                    netkit_epoll_wait(epoll, keys.baseAddress, events.baseAddress, Int32(keys.count), milliseconds)
                }
            }
            guard count > 0 else { return }
            for index in 0..<Int(count) {
                guard readyKeys[index] != 0 else {
                    queue.wakePipe.drain()
                    continue
                }
                let events = readyEvents[index]
                guard let id = byKey[readyKeys[index]] else { continue }
                step(
                    id, readable: events & (netkit_epoll_in | netkit_epoll_hangup) != 0,
                    writable: events & (netkit_epoll_out | netkit_epoll_hangup) != 0)
            }
        }

        private func step(_ id: ObjectIdentifier, readable: Bool = true, writable: Bool = true) {
            guard let session = sessions[id] else { return }
            apply(session.step(readable: readable, writable: writable, buffer: &buffer), to: id)
        }

        private func fireTimers() {
            for entry in timers.takeDue(at: .now) where scheduled[entry.session]?.generation == entry.generation {
                scheduled.removeValue(forKey: entry.session)
                step(entry.session)
            }
        }

        /// Makes the loop wait for what `session` asked for, or forgets the session once it ended.
        private func apply(_ interest: CurlWebSocketSession.Interest, to id: ObjectIdentifier) {
            guard let session = sessions[id] else { return }
            if session.hasEnded { return forget(id, session) }
            if let descriptor = session.descriptor {
                let wanted = CurlWebSocketSocket.epollEvents(read: interest.read, write: interest.write)
                if !register(id, descriptor: descriptor, events: wanted) {
                    return apply(session.abort(.transport(reason: "the WebSocket loop could not watch the connection's socket (errno \(errno))")), to: id)
                }
            }
            if interest.again { again.insert(id) }
            if let deadline = interest.deadline {
                if scheduled[id]?.deadline != deadline {
                    generation &+= 1
                    scheduled[id] = (deadline, generation)
                    timers.schedule(.init(deadline: deadline, session: id, generation: generation))
                }
            } else {
                scheduled.removeValue(forKey: id)
            }
        }

        /// Adds, changes or removes the socket's registration; `false` when the system refuses.
        private func register(_ id: ObjectIdentifier, descriptor: Int32, events: UInt32?) -> Bool {
            let current = registered[id]
            guard current?.events != events else { return true }
            let key = Self.key(id)
            switch (current, events) {
            case (nil, nil): return true
            case (nil, let events?):
                guard netkit_epoll_control(epoll, EPOLL_CTL_ADD, descriptor, events, key) == 0 else { return false }
                registered[id] = (descriptor, events)
            case (let current?, nil):
                _ = netkit_epoll_control(epoll, EPOLL_CTL_DEL, current.descriptor, 0, key)
                registered.removeValue(forKey: id)
            case (_?, let events?):
                guard netkit_epoll_control(epoll, EPOLL_CTL_MOD, descriptor, events, key) == 0 else { return false }
                registered[id] = (descriptor, events)
            }
            return true
        }

        /// The session ended: its socket leaves the epoll set, its easy handle the multi handle
        /// (which closes a connect-only connection at once), and the loop forgets it.
        private func forget(_ id: ObjectIdentifier, _ session: CurlWebSocketSession) {
            if let current = registered.removeValue(forKey: id) {
                _ = netkit_epoll_control(epoll, EPOLL_CTL_DEL, current.descriptor, 0, Self.key(id))
            }
            if let easy = session.easy {
                connecting.removeValue(forKey: UInt(bitPattern: easy))
                _ = curl_multi_remove_handle(multi, easy)
                curl_easy_cleanup(easy)
            }
            scheduled.removeValue(forKey: id)
            again.remove(id)
            sessions.removeValue(forKey: id)
            byKey.removeValue(forKey: Self.key(id))
        }

        /// How long the loop may sleep: until the earliest deadline (libcurl's own timeouts are
        /// `curl_multi_poll`'s business).
        private func waitMilliseconds() -> Int32 {
            guard let earliest = timers.earliest else { return 1000 }
            let remaining = earliest - .now
            guard remaining > .zero else { return 0 }
            return Int32(clamping: min(remaining.millisecondsRoundedUp, 1000))
        }

        private static func key(_ id: ObjectIdentifier) -> UInt64 {
            UInt64(UInt(bitPattern: id))
        }
    }
#endif
