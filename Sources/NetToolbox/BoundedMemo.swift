/// Remembers values that cost microseconds to work out and are asked for again and again (every
/// request to the same endpoint repeats the same URL text, every cache hit the same key).
/// Thread-safe; it forgets everything once it holds `limit` values, which bounds memory without
/// bookkeeping on the hot path.
package final class BoundedMemo<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    // Inlinable: every request's URL memo (NetCore) and cache key memo (NetPlugins) asks it from
    // another module, where an opaque generic call would hash through witness tables.
    @usableFromInline let values = Locked<[Key: Value]>([:])
    /// How many values it holds before it forgets them all.
    package let limit: Int

    /// An empty memo that holds at most `limit` values.
    package init(limit: Int = 1024) {
        self.limit = limit
    }

    /// The value for `key`, made by `make` the first time (or again after the memo was cleared).
    /// When `make` throws, nothing is remembered and the error is passed on.
    @inlinable
    package func value<Failure: Error>(for key: Key, make: (Key) throws(Failure) -> Value) throws(Failure) -> Value {
        if let known = values.withLock({ $0[key] }) { return known }
        let made = try make(key)
        values.withLock { values in
            if values.count >= limit { values.removeAll(keepingCapacity: true) }
            values[key] = made
        }
        return made
    }
}
