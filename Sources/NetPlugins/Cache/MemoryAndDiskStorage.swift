import Foundation

/// Two-level storage: memory in front of disk.
///
/// Reads try memory first; a disk hit is copied into memory. Writes go to both (the disk write
/// decides whether `store` throws). Removals clear both.
public final class MemoryAndDiskStorage: CacheStorage {
    /// The fast level.
    public let memory: MemoryStorage
    /// The persistent level.
    public let disk: DiskStorage

    /// Combines two storages.
    public init(memory: MemoryStorage, disk: DiskStorage) {
        self.memory = memory
        self.disk = disk
    }

    public func entry(for key: CacheKey) -> CacheEntry? {
        if let entry = memory.entry(for: key) { return entry }
        guard let entry = disk.entry(for: key) else { return nil }
        memory.store(entry, for: key)
        return entry
    }

    public func store(_ entry: CacheEntry, for key: CacheKey) throws {
        memory.store(entry, for: key)
        try disk.store(entry, for: key)
    }

    public func remove(for key: CacheKey) {
        memory.remove(for: key)
        disk.remove(for: key)
    }

    public func removeAll() {
        memory.removeAll()
        disk.removeAll()
    }

    /// The disk level's bytes (the memory level holds a subset of the same entries).
    public var totalBytes: Int { disk.totalBytes }

    /// The disk level's entry count.
    public var count: Int { disk.count }
}
