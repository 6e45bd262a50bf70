import Foundation

/// Where ``CachePlugin`` keeps entries. Implementations are thread-safe and synchronous (a hit
/// must not cost an actor hop); a failed read is a miss, never a crash.
public protocol CacheStorage: Sendable {
    /// The entry for `key`, or `nil` on a miss.
    func entry(for key: CacheKey) -> CacheEntry?
    /// Stores `entry` under `key`, replacing any previous one, evicting others to stay in bounds.
    /// - Throws: When the entry could not be written (disk full, unwritable directory).
    func store(_ entry: CacheEntry, for key: CacheKey) throws
    /// Removes the entry for `key`, if any.
    func remove(for key: CacheKey)
    /// Removes every entry.
    func removeAll()
    /// The bytes the entries take (for disk: file sizes).
    var totalBytes: Int { get }
    /// The number of entries.
    var count: Int { get }
}

public extension CacheStorage where Self == MemoryStorage {
    /// An in-memory LRU storage bounded by total bytes and entry count.
    static func memory(maxBytes: Int = 32 * 1024 * 1024, maxCount: Int = 1000) -> MemoryStorage {
        MemoryStorage(maxBytes: maxBytes, maxCount: maxCount)
    }
}

public extension CacheStorage where Self == DiskStorage {
    /// A directory of entry files bounded by total bytes (LRU).
    static func disk(directory: URL, maxBytes: Int = 256 * 1024 * 1024) -> DiskStorage {
        DiskStorage(directory: directory, maxBytes: maxBytes)
    }
}

public extension CacheStorage where Self == MemoryAndDiskStorage {
    /// Memory in front of disk: reads try memory first; disk hits are copied into memory.
    static func memoryAndDisk(
        directory: URL, memoryMaxBytes: Int = 32 * 1024 * 1024, memoryMaxCount: Int = 1000,
        diskMaxBytes: Int = 256 * 1024 * 1024
    ) -> MemoryAndDiskStorage {
        MemoryAndDiskStorage(
            memory: MemoryStorage(maxBytes: memoryMaxBytes, maxCount: memoryMaxCount),
            disk: DiskStorage(directory: directory, maxBytes: diskMaxBytes))
    }
}
