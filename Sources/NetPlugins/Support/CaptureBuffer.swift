/// A ring buffer of capture records bounded by count and by bytes; the oldest records go first.
/// Not thread-safe: ``CapturePlugin`` keeps it inside a `Locked`.
struct CaptureBuffer: Sendable {
    let maxCount: Int
    let maxBytes: Int
    private var slots: [CaptureRecord?] = []
    private var head = 0
    private(set) var count = 0
    private(set) var bytes = 0

    init(maxCount: Int, maxBytes: Int) {
        self.maxCount = max(1, maxCount)
        self.maxBytes = max(0, maxBytes)
    }

    /// Records pushed out by ``append(_:)``, for the caller to release after leaving the lock
    /// (freeing bodies and headers is the slow part). One eviction, the usual case at capacity,
    /// needs no array.
    struct Evicted {
        var first: CaptureRecord?
        var more: [CaptureRecord] = []
    }

    /// Adds `record`, evicting the oldest as needed, and returns what it evicted.
    @discardableResult
    mutating func append(_ record: consuming CaptureRecord) -> Evicted {
        let size = record.bytes
        var evicted = Evicted()
        while count > 0 && (count >= maxCount || bytes + size > maxBytes) {
            guard let oldest = dropOldest() else { continue }
            if evicted.first == nil { evicted.first = oldest } else { evicted.more.append(oldest) }
        }
        if count == slots.count {
            // Every slot is live: grow (below maxCount, guaranteed by the loop above).
            if head != 0 { compact() }
            slots.append(record)
        } else {
            slots[(head + count) % slots.count] = record
        }
        count += 1
        bytes += size
        return evicted
    }

    mutating func removeAll() {
        slots = []
        head = 0
        count = 0
        bytes = 0
    }

    /// Oldest first.
    var records: [CaptureRecord] {
        (0..<count).compactMap { slots[(head + $0) % slots.count] }
    }

    private mutating func dropOldest() -> CaptureRecord? {
        let oldest = slots[head]
        if let oldest { bytes -= oldest.bytes }
        slots[head] = nil
        head = (head + 1) % slots.count
        count -= 1
        if count == 0 { head = 0 }
        return oldest
    }

    /// Moves live records to the front so the array can grow again.
    private mutating func compact() {
        slots = records.map(Optional.some)
        head = 0
    }
}
