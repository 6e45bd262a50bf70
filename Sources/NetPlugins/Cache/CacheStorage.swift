import Foundation

/// Where ``CachePlugin`` keeps entries: in memory, in a directory, or memory in front of a
/// directory.
///
/// ```swift
/// CachePlugin(storage: .memory())
/// CachePlugin(storage: .memoryAndDisk(directory: cachesURL))
/// ```
///
/// The set is closed in 1.0: the plugin reaches storages only through `async` calls, and reads
/// and writes of files run one at a time, in the order they were asked for, on a serial Dispatch
/// queue, never on the Swift concurrency pool (a directory is first scanned there too, not when
/// the storage is made). A hit in memory costs no hop. (Custom storages may come back as an `async` protocol in a later
/// release, an addition that breaks nothing.)
public struct CacheStorage: Sendable {
    /// The storage behind the calls.
    package let backend: any CacheBackend

    /// Wraps a storage (tests use the concrete ones directly).
    package init(_ backend: any CacheBackend) {
        self.backend = backend
    }

    /// An in-memory storage with least-recently-used eviction.
    /// - Parameters:
    ///   - maxBytes: Total size bound (bodies, headers and keys); a larger entry is not stored.
    ///     Default 32 MiB.
    ///   - maxCount: Entry count bound. Default 1000.
    public static func memory(maxBytes: Int = 32 * 1024 * 1024, maxCount: Int = 1000) -> CacheStorage {
        CacheStorage(MemoryStorage(maxBytes: maxBytes, maxCount: maxCount))
    }

    /// A directory of entry files (created when missing), bounded by total file bytes with
    /// least-recently-used eviction. A truncated or corrupt file is a miss, never a crash; a
    /// process killed mid-write leaves the old entry or the new one. Several storages (and
    /// processes) may share a directory.
    /// - Parameters:
    ///   - directory: The cache's own directory; only `.nkcache` files in it are touched.
    ///   - maxBytes: The bound on total file bytes. Default 256 MiB.
    public static func disk(directory: URL, maxBytes: Int = 256 * 1024 * 1024) -> CacheStorage {
        CacheStorage(DiskStorage(directory: directory, maxBytes: maxBytes))
    }

    /// Memory in front of a directory: reads try memory first and copy a disk hit into memory;
    /// writes and removals go to both.
    /// - Parameters:
    ///   - directory: The cache's own directory (see ``disk(directory:maxBytes:)``).
    ///   - memoryMaxBytes: The memory level's size bound. Default 32 MiB.
    ///   - memoryMaxCount: The memory level's entry count bound. Default 1000.
    ///   - diskMaxBytes: The disk level's bound on total file bytes. Default 256 MiB.
    public static func memoryAndDisk(
        directory: URL, memoryMaxBytes: Int = 32 * 1024 * 1024, memoryMaxCount: Int = 1000,
        diskMaxBytes: Int = 256 * 1024 * 1024
    ) -> CacheStorage {
        CacheStorage(
            MemoryAndDiskStorage(
                memory: MemoryStorage(maxBytes: memoryMaxBytes, maxCount: memoryMaxCount),
                disk: DiskStorage(directory: directory, maxBytes: diskMaxBytes)))
    }

    // MARK: The plugin's calls

    /// The entry for `key`, or `nil` on a miss.
    package func entry(for key: CacheKey) async -> CacheEntry? {
        if let hit = backend.memoryEntry(for: key) { return hit }
        guard backend.touchesFiles else { return backend.entry(for: key) }
        let backend = backend
        return await FileQueue.run { backend.entry(for: key) }
    }

    /// Stores `entry` under `key` (see ``CacheBackend/store(_:for:)``).
    package func store(_ entry: CacheEntry, for key: CacheKey) async throws {
        guard backend.touchesFiles else { return try backend.store(entry, for: key) }
        let backend = backend
        try await FileQueue.runThrowing { try backend.store(entry, for: key) }
    }

    /// Stores `entry` when it can: the plugin's writes. A failed write (a full disk) leaves a miss
    /// and never fails the call the response belongs to. It is not reported: 1.0 has no event or
    /// log line for it, and a new ``/NetCore/NetworkEvent/Kind`` case would break exhaustive
    /// switches over the public enum; this is the one place a later release can report it from.
    package func storeIfPossible(_ entry: CacheEntry, for key: CacheKey) async {
        try? await store(entry, for: key)
    }

    /// Removes the entry for `key`, if any.
    package func remove(for key: CacheKey) async {
        guard backend.touchesFiles else { return backend.remove(for: key) }
        let backend = backend
        await FileQueue.run { backend.remove(for: key) }
    }

    /// Removes every entry.
    package func removeAll() async {
        guard backend.touchesFiles else { return backend.removeAll() }
        let backend = backend
        await FileQueue.run { backend.removeAll() }
    }

    /// The bytes the entries take (kept in memory; a directory not used yet is scanned first, on
    /// the file queue, after the file work asked for before).
    package var totalBytes: Int {
        get async {
            guard backend.touchesFiles else { return backend.totalBytes }
            let backend = backend
            return await FileQueue.run { backend.totalBytes }
        }
    }

    /// The number of entries (see ``totalBytes``).
    package var count: Int {
        get async {
            guard backend.touchesFiles else { return backend.count }
            let backend = backend
            return await FileQueue.run { backend.count }
        }
    }
}

/// A storage's synchronous, thread-safe operations; ``CacheStorage`` decides where they run. A
/// failed read is a miss, never a crash.
package protocol CacheBackend: Sendable {
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
    /// Whether the operations read or write files (then they run off the concurrency pool).
    var touchesFiles: Bool { get }
    /// The entry for `key` when it can be had without touching a file, else `nil`.
    func memoryEntry(for key: CacheKey) -> CacheEntry?
}

/// Runs blocking file work on a Dispatch queue and resumes the caller when it is done, so a slow
/// disk never holds one of the few threads of the Swift concurrency pool.
///
/// The queue is serial: work runs in the order it was enqueued (a `store` then a `remove` of one
/// key, issued back to back by different tasks, always ends with no entry, and `removeAll` is
/// never overtaken by a write asked for before it), and blocked file calls hold one thread,
/// never one per call.
package enum FileQueue {
    private static let key = DispatchSpecificKey<Bool>()
    private static let queue: DispatchQueue = {
        let queue = DispatchQueue(label: "NetKit.CacheStorage.files", qos: .utility)
        queue.setSpecific(key: key, value: true)
        return queue
    }()

    /// Whether the caller runs on the file queue (tests check that file work does).
    package static var isCurrent: Bool { DispatchQueue.getSpecific(key: key) == true }

    static func run<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: work()) }
        }
    }

    static func runThrowing(_ work: @escaping @Sendable () throws -> Void) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            queue.async { continuation.resume(with: Result { try work() }) }
        }
    }
}
