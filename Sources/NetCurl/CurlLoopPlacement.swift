#if canImport(CCurl)
    import NetBase

    /// Which of a transport's event loops a new transfer goes to (pure: no threads, no libcurl).
    ///
    /// Each loop has its own connections, so a transfer is best served by the loop that last
    /// served its connection key (origin, TLS policy, proxy): that loop may hold an idle
    /// connection to reuse. Load comes first, though: the transfer goes to a loop with the fewest
    /// transfers, and only among those does the key's last loop win. Sequential calls thus stay on
    /// one loop and reuse its connection; concurrent ones spread over every loop, so no loop sits
    /// idle while another has a queue.
    struct CurlLoopPlacement {
        /// How many keys are remembered before the memory starts over (a client talking to many
        /// origins must not grow it without bound; forgetting only costs a possible reuse).
        static let maxRememberedKeys = 1024

        private var lastLoop: [Int: Int] = [:]
        /// Where the search for a least-loaded loop starts for a key seen for the first time, so
        /// new keys do not all pile onto the first loop.
        private var nextStart = 0

        /// Picks a loop for a transfer with connection key `key`, given each loop's current number
        /// of transfers (`loads`, one per loop, at least one), and remembers the choice for `key`.
        mutating func choose<Loads: RandomAccessCollection<Int>>(key: Int, loads: Loads) -> Int where Loads.Index == Int {
            precondition(!loads.isEmpty, "a transport has at least one loop")
            guard loads.count > 1 else { return 0 }
            let least = loads.min() ?? 0
            if let last = lastLoop[key], last < loads.count, loads[last] == least { return last }
            let start = nextStart % loads.count
            nextStart = start + 1
            var chosen = start
            for offset in 0..<loads.count {
                let index = (start + offset) % loads.count
                if loads[index] == least {
                    chosen = index
                    break
                }
            }
            if lastLoop.count >= Self.maxRememberedKeys, lastLoop[key] == nil { lastLoop.removeAll(keepingCapacity: true) }
            lastLoop[key] = chosen
            return chosen
        }
    }
#endif
