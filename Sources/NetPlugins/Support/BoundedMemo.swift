import NetCore

/// Remembers values that cost microseconds to work out and are asked for again and again (every
/// cache hit repeats the same URL and key). Thread-safe; it forgets everything once it holds
/// `limit` values, which bounds memory without bookkeeping on the hot path.
final class BoundedMemo<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private let values = Locked<[Key: Value]>([:])
    private let limit: Int

    init(limit: Int = 1024) {
        self.limit = limit
    }

    /// The value for `key`, made by `make` the first time (or again after the memo was cleared).
    func value(for key: Key, make: (Key) -> Value) -> Value {
        if let known = values.withLock({ $0[key] }) { return known }
        let made = make(key)
        values.withLock { values in
            if values.count >= limit { values.removeAll(keepingCapacity: true) }
            values[key] = made
        }
        return made
    }
}
