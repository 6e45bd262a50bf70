import NetToolbox
import Foundation
import NetCore
@testable import NetPlugins
import Testing

/// Runs jobs one at a time, in the order they were enqueued: child tasks made under it start in
/// the order they were created, so two calls issued back to back reach the storage in that order.
final class SerialTaskExecutor: TaskExecutor {
    private let queue = DispatchQueue(label: "CachePluginTests.SerialTaskExecutor")

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}

/// A disk level whose reads, once `pausesReads` is set, stop after reading the file until the
/// test lets them go: what a slow disk does while another call clears the cache.
final class PausingDisk: CacheBackend {
    let inner: DiskStorage
    private let pausesReads = Locked(false)
    private let readFinished = DispatchSemaphore(value: 0)
    private let release = DispatchSemaphore(value: 0)

    init(_ inner: DiskStorage) { self.inner = inner }

    /// From now on, each read waits for ``letReadGo()`` after reading.
    func pauseReads() { pausesReads.withLock { $0 = true } }
    /// Blocks until a paused read has read its file.
    func waitForPausedRead() { readFinished.wait() }
    /// Lets the paused read return.
    func letReadGo() { release.signal() }

    func entry(for key: CacheKey) -> CacheEntry? {
        let entry = inner.entry(for: key)
        if pausesReads.withLock({ $0 }) {
            readFinished.signal()
            release.wait()
        }
        return entry
    }
    func store(_ entry: CacheEntry, for key: CacheKey) throws { try inner.store(entry, for: key) }
    func remove(for key: CacheKey) { inner.remove(for: key) }
    func removeAll() { inner.removeAll() }
    var totalBytes: Int { inner.totalBytes }
    var count: Int { inner.count }
    var touchesFiles: Bool { true }
    func memoryEntry(for key: CacheKey) -> CacheEntry? { nil }
}

@Suite("Cache storage ordering and first use")
struct StorageOrderTests {
    let key = CacheKey(rawValue: "key-1")

    @Test(
        "A store and a remove of one key, issued back to back by two tasks, always end with no entry",
        arguments: ["disk", "memoryAndDisk"])
    func storeThenRemoveEndsEmpty(kind: String) async throws {
        let directory = temporaryDirectory("storeThenRemove\(kind)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let storage: CacheStorage = kind == "disk" ? .disk(directory: directory) : .memoryAndDisk(directory: directory)
        // A large entry: its write takes longer than the remove's unlink.
        let entry = makeEntry(String(repeating: "x", count: 256 * 1024))
        let executor = SerialTaskExecutor()
        let key = key
        var survivors = 0
        for _ in 0..<50 {
            await withTaskExecutorPreference(executor) {
                async let stored: Void? = try? storage.store(entry, for: key)
                async let removed: Void = storage.remove(for: key)
                _ = await (stored, removed)
            }
            let entry = await storage.entry(for: key)
            let count = await storage.count
            if entry != nil || count != 0 { survivors += 1 }
        }
        #expect(survivors == 0, "the remove asked for last ran first")
    }

    @Test("A removal while a read is on the disk does not put the removed entry back into memory", arguments: [true, false])
    func removalDuringDiskRead(removesAll: Bool) throws {
        let directory = temporaryDirectory("removalDuringDiskRead\(removesAll)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let disk = PausingDisk(DiskStorage(directory: directory))
        let storage = MemoryAndDiskStorage(memory: MemoryStorage(), disk: disk)
        try storage.store(makeEntry("signed in"), for: key)
        storage.memory.removeAll()  // only the disk has it: the next read goes there
        disk.pauseReads()

        let read = Locked<CacheEntry??>(nil)
        let readReturned = DispatchSemaphore(value: 0)
        let key = key
        DispatchQueue.global().async {
            let entry = storage.entry(for: key)
            read.withLock { $0 = .some(entry) }
            readReturned.signal()
        }
        disk.waitForPausedRead()
        if removesAll { storage.removeAll() } else { storage.remove(for: key) }
        disk.letReadGo()
        readReturned.wait()

        #expect(read.withLock { $0 }??.data == Data("signed in".utf8), "the read began before the removal")
        #expect(storage.memory.entry(for: key) == nil)
        #expect(storage.count == 0)
    }

    @Test("Making a disk storage touches no file: the directory is created, cleaned and indexed at first use")
    func indexIsBuiltAtFirstUse() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let earlier = DiskStorage(directory: directory)
        try earlier.store(makeEntry("one"), for: CacheKey(rawValue: "one"))
        try earlier.store(makeEntry("two"), for: CacheKey(rawValue: "two"))
        let stray = directory.appendingPathComponent(DiskStorage.temporaryPrefix + "crashed")
        try Data("partial".utf8).write(to: stray)
        let missing = directory.appendingPathComponent("not-yet")

        let storage = CacheStorage.disk(directory: directory)
        let elsewhere = CacheStorage.memoryAndDisk(directory: missing)
        #expect(FileManager.default.fileExists(atPath: stray.path), "the scan waits for the first use")
        #expect(!FileManager.default.fileExists(atPath: missing.path))

        #expect(await storage.count == 2)
        #expect(await storage.totalBytes == earlier.totalBytes)
        #expect(!FileManager.default.fileExists(atPath: stray.path))
        #expect(await storage.entry(for: CacheKey(rawValue: "one"))?.data == Data("one".utf8))
        #expect(await elsewhere.count == 0)
        #expect(FileManager.default.fileExists(atPath: missing.path))
    }
}
