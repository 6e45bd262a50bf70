import NetToolbox
import Foundation
import NetCore

/// Two-level storage: memory in front of disk.
///
/// Reads try memory first; a disk hit is copied into memory. Writes go to both (the disk write
/// decides whether `store` throws). Removals clear both.
///
/// A disk hit is copied into memory only when no store or removal ran while it was read: each
/// of those bumps a generation, together with its memory change, after its disk work. So a
/// `removeAll()` (a logout) during a read never puts the removed entry back into memory.
package final class MemoryAndDiskStorage: CacheBackend {
    /// The fast level.
    package let memory: MemoryStorage
    /// The persistent level (a ``DiskStorage``; tests put a wrapper in its place).
    package let disk: any CacheBackend
    /// Counts the stores and removals; its lock also guards each memory change that goes with a
    /// bump or a check (always taken before `memory`'s own lock, never inside it).
    private let generation = Locked(0)

    /// Combines two storages.
    package init(memory: MemoryStorage, disk: any CacheBackend) {
        self.memory = memory
        self.disk = disk
    }

    package func entry(for key: CacheKey) -> CacheEntry? {
        if let entry = memory.entry(for: key) { return entry }
        let seen = generation.withLock { $0 }
        guard let entry = disk.entry(for: key) else { return nil }
        generation.withLock { current in
            if current == seen { memory.store(entry, for: key) }
        }
        return entry
    }

    package func store(_ entry: CacheEntry, for key: CacheKey) throws {
        // Disk first: a read that starts after the bump finds the new file, not the old one.
        let written = Result { try disk.store(entry, for: key) }
        generation.withLock { current in
            current &+= 1
            memory.store(entry, for: key)
        }
        try written.get()
    }

    package func remove(for key: CacheKey) {
        disk.remove(for: key)
        generation.withLock { current in
            current &+= 1
            memory.remove(for: key)
        }
    }

    package func removeAll() {
        disk.removeAll()
        generation.withLock { current in
            current &+= 1
            memory.removeAll()
        }
    }

    /// The disk level's bytes (the memory level holds a subset of the same entries).
    package var totalBytes: Int { disk.totalBytes }

    /// The disk level's entry count.
    package var count: Int { disk.count }

    /// The disk level reads and writes files.
    package var touchesFiles: Bool { true }

    /// The memory level's entry.
    package func memoryEntry(for key: CacheKey) -> CacheEntry? { memory.entry(for: key) }
}
