import Foundation

/// Two-level storage: memory in front of disk.
///
/// Reads try memory first; a disk hit is copied into memory. Writes go to both (the disk write
/// decides whether `store` throws). Removals clear both.
package final class MemoryAndDiskStorage: CacheBackend {
    /// The fast level.
    package let memory: MemoryStorage
    /// The persistent level.
    package let disk: DiskStorage

    /// Combines two storages.
    package init(memory: MemoryStorage, disk: DiskStorage) {
        self.memory = memory
        self.disk = disk
    }

    package func entry(for key: CacheKey) -> CacheEntry? {
        if let entry = memory.entry(for: key) { return entry }
        guard let entry = disk.entry(for: key) else { return nil }
        memory.store(entry, for: key)
        return entry
    }

    package func store(_ entry: CacheEntry, for key: CacheKey) throws {
        memory.store(entry, for: key)
        try disk.store(entry, for: key)
    }

    package func remove(for key: CacheKey) {
        memory.remove(for: key)
        disk.remove(for: key)
    }

    package func removeAll() {
        memory.removeAll()
        disk.removeAll()
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
