#if canImport(CCurl)
    import Foundation

    /// The deadlines of one WebSocket loop's sessions (handshake, close, next ping), earliest
    /// first: a binary heap, so thousands of idle connections cost the loop nothing until one is due.
    ///
    /// A session that moves its deadline schedules it again; the older entry is left in the heap
    /// and skipped when it comes up (its generation no longer matches the session's).
    struct CurlWebSocketTimers {
        struct Entry {
            let deadline: ContinuousClock.Instant
            let session: ObjectIdentifier
            let generation: UInt64
        }

        private var heap: [Entry] = []

        /// The earliest deadline in the heap (maybe a stale one: waking early is harmless).
        var earliest: ContinuousClock.Instant? { heap.first?.deadline }

        mutating func schedule(_ entry: Entry) {
            heap.append(entry)
            var child = heap.count - 1
            while child > 0 {
                let parent = (child - 1) / 2
                guard heap[child].deadline < heap[parent].deadline else { break }
                heap.swapAt(child, parent)
                child = parent
            }
        }

        /// Removes and returns every entry due at `now`, earliest first.
        mutating func takeDue(at now: ContinuousClock.Instant) -> [Entry] {
            var due: [Entry] = []
            while let first = heap.first, first.deadline <= now {
                due.append(first)
                removeFirst()
            }
            return due
        }

        private mutating func removeFirst() {
            heap.swapAt(0, heap.count - 1)
            heap.removeLast()
            var parent = 0
            while true {
                let left = 2 * parent + 1
                let right = left + 1
                var smallest = parent
                if left < heap.count, heap[left].deadline < heap[smallest].deadline { smallest = left }
                if right < heap.count, heap[right].deadline < heap[smallest].deadline { smallest = right }
                guard smallest != parent else { return }
                heap.swapAt(parent, smallest)
                parent = smallest
            }
        }
    }
#endif
