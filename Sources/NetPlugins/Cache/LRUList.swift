/// A least-recently-used order over keys: O(1) touch, insert, remove and oldest.
///
/// Nodes live in an array linked by indices (no per-node allocation); freed slots are reused.
/// Not thread-safe: the owning storage guards it with its lock.
struct LRUList<Key: Hashable> {
    private struct Node {
        var key: Key?
        var previous: Int
        var next: Int
    }

    private var nodes: [Node] = []
    private var free: [Int] = []
    private var index: [Key: Int] = [:]
    private var head = -1  // most recent
    private var tail = -1  // least recent

    var count: Int { index.count }

    func contains(_ key: Key) -> Bool { index[key] != nil }

    /// Marks `key` as the most recently used, inserting it when absent.
    /// - Returns: The key's slot, for ``touch(slot:)``.
    @discardableResult
    mutating func touch(_ key: Key) -> Int {
        if let slot = index[key] {
            touch(slot: slot)
            return slot
        }
        let slot: Int
        if let reused = free.popLast() {
            slot = reused
            nodes[slot] = Node(key: key, previous: -1, next: -1)
        } else {
            slot = nodes.count
            nodes.append(Node(key: key, previous: -1, next: -1))
        }
        index[key] = slot
        pushFront(slot)
        return slot
    }

    /// Marks the key in `slot` (from ``touch(_:)``) as the most recently used without hashing it.
    mutating func touch(slot: Int) {
        guard slot != head else { return }
        unlink(slot)
        pushFront(slot)
    }

    /// Forgets `key`.
    mutating func remove(_ key: Key) {
        guard let slot = index.removeValue(forKey: key) else { return }
        unlink(slot)
        nodes[slot].key = nil
        free.append(slot)
    }

    /// The least recently used key.
    var oldest: Key? { tail >= 0 ? nodes[tail].key : nil }

    mutating func removeAll() {
        nodes.removeAll()
        free.removeAll()
        index.removeAll()
        head = -1
        tail = -1
    }

    private mutating func unlink(_ slot: Int) {
        let previous = nodes[slot].previous, next = nodes[slot].next
        if previous >= 0 { nodes[previous].next = next } else { head = next }
        if next >= 0 { nodes[next].previous = previous } else { tail = previous }
        nodes[slot].previous = -1
        nodes[slot].next = -1
    }

    private mutating func pushFront(_ slot: Int) {
        nodes[slot].previous = -1
        nodes[slot].next = head
        if head >= 0 { nodes[head].previous = slot }
        head = slot
        if tail < 0 { tail = slot }
    }
}
