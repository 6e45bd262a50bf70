import NetToolbox
import Foundation
import NetCore
@testable import NetPlugins
import Testing

/// A storage that records, for each call, whether it ran on the cache's file queue.
final class QueueRecordingStorage: CacheBackend {
    let touchesFiles: Bool
    private let memory = MemoryStorage()
    private let onFileQueue = Locked<[Bool]>([])

    init(touchesFiles: Bool) { self.touchesFiles = touchesFiles }

    /// One value per call: `true` when it ran on the file queue.
    var calls: [Bool] { onFileQueue.withLock { $0 } }

    private func record() { onFileQueue.withLock { $0.append(FileQueue.isCurrent) } }

    func entry(for key: CacheKey) -> CacheEntry? {
        record()
        return memory.entry(for: key)
    }
    func store(_ entry: CacheEntry, for key: CacheKey) throws {
        record()
        memory.store(entry, for: key)
    }
    func remove(for key: CacheKey) {
        record()
        memory.remove(for: key)
    }
    func removeAll() {
        record()
        memory.removeAll()
    }
    var totalBytes: Int { memory.totalBytes }
    var count: Int { memory.count }
    func memoryEntry(for key: CacheKey) -> CacheEntry? { nil }
}

@Suite("Cache storage threads")
struct FileQueueTests {
    @Test("A storage that touches files is read, written and cleared on the file queue, never in the calling task")
    func fileWorkRunsOnTheFileQueue() async throws {
        let server = Server()
        let storage = QueueRecordingStorage(touchesFiles: true)
        let cache = CachePlugin(storage: CacheStorage(storage), policy: .cacheElseNetwork)
        let provider = Provider<Endpoint>(transport: server.transport, plugins: [cache])
        _ = try await provider.request(Endpoint())
        let second = try await provider.request(Endpoint())
        await cache.removeAll()
        #expect(second.source == .cache)
        #expect(storage.calls.count >= 4)  // read (miss), store, read (hit), remove all
        #expect(storage.calls.allSatisfy { $0 })
    }

    @Test("A memory storage is used inline: no hop to the file queue")
    func memoryWorkRunsInline() async throws {
        let server = Server()
        let storage = QueueRecordingStorage(touchesFiles: false)
        let provider = Provider<Endpoint>(
            transport: server.transport, plugins: [CachePlugin(storage: CacheStorage(storage), policy: .cacheElseNetwork)])
        _ = try await provider.request(Endpoint())
        _ = try await provider.request(Endpoint())
        #expect(storage.calls.count >= 3)
        #expect(storage.calls.allSatisfy { !$0 })
    }
}
