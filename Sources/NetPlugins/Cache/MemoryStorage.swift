import NetToolbox
import Foundation
import NetCore

/// In-memory cache storage with least-recently-used eviction, bounded by total bytes and by
/// entry count. All operations take one short `Locked` section; no actor hops.
package final class MemoryStorage: CacheBackend {
    private struct State {
        /// Each entry with its slot in `order` (a hit then hashes the key once).
        var entries: [CacheKey: (entry: CacheEntry, slot: Int)] = [:]
        var order = LRUList<CacheKey>()
        var bytes = 0
    }

    /// The most bytes (see ``CacheEntry/cost``) the storage holds before evicting.
    package let maxBytes: Int
    /// The most entries the storage holds before evicting.
    package let maxCount: Int
    private let state = Locked(State())

    /// Creates an empty storage.
    /// - Parameters:
    ///   - maxBytes: Total cost bound; an entry larger than this is not stored. Default 32 MiB.
    ///   - maxCount: Entry count bound. Default 1000.
    package init(maxBytes: Int = 32 * 1024 * 1024, maxCount: Int = 1000) {
        self.maxBytes = max(0, maxBytes)
        self.maxCount = max(0, maxCount)
    }

    package func entry(for key: CacheKey) -> CacheEntry? {
        state.withLock { state in
            guard let found = state.entries[key] else { return nil }
            state.order.touch(slot: found.slot)
            return found.entry
        }
    }

    package func store(_ entry: CacheEntry, for key: CacheKey) {
        let cost = entry.cost
        state.withLock { state in
            if let old = state.entries.removeValue(forKey: key) {
                state.bytes -= old.entry.cost
                state.order.remove(key)
            }
            guard cost <= maxBytes, maxCount > 0 else { return }
            while state.bytes + cost > maxBytes || state.entries.count + 1 > maxCount,
                let oldest = state.order.oldest
            {
                state.order.remove(oldest)
                if let evicted = state.entries.removeValue(forKey: oldest) { state.bytes -= evicted.entry.cost }
            }
            state.entries[key] = (entry, state.order.touch(key))
            state.bytes += cost
        }
    }

    package func remove(for key: CacheKey) {
        state.withLock { state in
            guard let old = state.entries.removeValue(forKey: key) else { return }
            state.bytes -= old.entry.cost
            state.order.remove(key)
        }
    }

    package func removeAll() {
        state.withLock { state in state = State() }
    }

    package var totalBytes: Int { state.withLock { $0.bytes } }

    package var count: Int { state.withLock { $0.entries.count } }

    /// Memory only: never touches a file.
    package var touchesFiles: Bool { false }

    /// Same as ``entry(for:)``.
    package func memoryEntry(for key: CacheKey) -> CacheEntry? { entry(for: key) }
}
