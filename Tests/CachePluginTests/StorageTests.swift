import Foundation
import NetCore
@testable import NetPlugins
import Testing

@Suite("Memory and disk storage")
struct StorageTests {
    func key(_ n: Int) -> CacheKey { CacheKey(rawValue: "key-\(n)") }

    @Test("memory evicts the least recently used entries to stay under the byte bound")
    func memoryBytes() {
        let entrySize = makeEntry(String(repeating: "x", count: 1000)).cost
        let storage = MemoryStorage(maxBytes: entrySize * 3, maxCount: 100)
        for n in 0..<3 { storage.store(makeEntry(String(repeating: "x", count: 1000)), for: key(n)) }
        _ = storage.entry(for: key(0))  // 1 is now the oldest
        storage.store(makeEntry(String(repeating: "x", count: 1000)), for: key(3))
        #expect(storage.count == 3)
        #expect(storage.totalBytes <= entrySize * 3)
        #expect(storage.entry(for: key(1)) == nil)
        #expect(storage.entry(for: key(0)) != nil)
        #expect(storage.entry(for: key(3)) != nil)
    }

    @Test("memory evicts by count and refuses an entry larger than the whole bound")
    func memoryCount() {
        let storage = MemoryStorage(maxBytes: 10_000, maxCount: 2)
        for n in 0..<5 { storage.store(makeEntry("\(n)"), for: key(n)) }
        #expect(storage.count == 2)
        #expect(storage.entry(for: key(4))?.data == Data("4".utf8))
        storage.store(makeEntry(String(repeating: "y", count: 20_000)), for: key(9))
        #expect(storage.entry(for: key(9)) == nil)
    }

    @Test("disk round-trips an entry with all its metadata")
    func diskRoundTrip() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let storage = DiskStorage(directory: directory)
        var entry = makeEntry("hello", version: 7)
        entry.maxAge = .seconds(12)
        entry.headers["X-Ünïcode"] = "välue"
        try storage.store(entry, for: key(1))
        #expect(storage.entry(for: key(1)) == entry)
        #expect(storage.entry(for: key(2)) == nil)
    }

    @Test("keys are stable across two DiskStorage instances on one directory")
    func diskStableAcrossInstances() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = Server()
        let first = Provider<Endpoint>(
            transport: server.transport,
            plugins: [CachePlugin(storage: .disk(directory: directory))])
        _ = try await first.request(Endpoint(path: "items", content: .query(["b": 2, "a": 1])))
        let reopened = DiskStorage(directory: directory)
        #expect(reopened.count == 1)
        let second = Provider<Endpoint>(transport: server.transport, plugins: [CachePlugin(storage: CacheStorage(reopened))])
        let response = try await second.request(Endpoint(path: "items", content: .query(["a": 1, "b": 2])))
        #expect(response.source == .cache)
        #expect(server.calls == 1)
    }

    @Test("disk evicts least recently used files to stay under the byte bound")
    func diskBytes() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let body = String(repeating: "z", count: 4000)
        let probe = DiskStorage(directory: directory)
        try probe.store(makeEntry(body), for: key(0))
        let fileSize = probe.totalBytes
        probe.removeAll()

        let storage = DiskStorage(directory: directory, maxBytes: fileSize * 3)
        for n in 0..<3 { try storage.store(makeEntry(body), for: key(n)) }
        _ = storage.entry(for: key(0))
        try storage.store(makeEntry(body), for: key(3))
        #expect(storage.totalBytes <= fileSize * 3)
        #expect(storage.count == 3)
        #expect(storage.entry(for: key(1)) == nil)
        #expect(storage.entry(for: key(0)) != nil)
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(files.count == 3)
        #expect(DiskStorage(directory: directory, maxBytes: fileSize * 2).count == 2)
    }

    enum Damage: String, CaseIterable, Sendable {
        case truncated, randomBytes, zeroLength, flippedByte, otherKey
    }

    @Test("a damaged or foreign entry file is a miss and is removed", arguments: Damage.allCases)
    func corruptFiles(damage: Damage) throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let storage = DiskStorage(directory: directory)
        try storage.store(makeEntry(String(repeating: "q", count: 500)), for: key(1))
        let path = directory.appendingPathComponent(key(1).digest + ".nkcache")
        var bytes = try Data(contentsOf: path)
        switch damage {
        case .truncated: bytes = bytes.prefix(bytes.count / 2)
        case .randomBytes: bytes = Data((0..<bytes.count).map { _ in UInt8.random(in: 0...255) })
        case .zeroLength: bytes = Data()
        case .flippedByte: bytes[bytes.count / 2] ^= 0x01
        case .otherKey:
            try storage.store(makeEntry("other"), for: key(2))
            bytes = try Data(contentsOf: directory.appendingPathComponent(key(2).digest + ".nkcache"))
        }
        try bytes.write(to: path)
        #expect(DiskStorage(directory: directory).entry(for: key(1)) == nil)
        #expect(storage.entry(for: key(1)) == nil)
        #expect(!FileManager.default.fileExists(atPath: path.path))
    }

    @Test("leftover temporary files are removed when a storage first uses the directory; other files are left alone")
    func leftoverTemporaryFiles() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stray = directory.appendingPathComponent(DiskStorage.temporaryPrefix + "crashed")
        let unrelated = directory.appendingPathComponent("notes.txt")
        try Data("partial".utf8).write(to: stray)
        try Data("mine".utf8).write(to: unrelated)
        let storage = DiskStorage(directory: directory)
        #expect(storage.count == 0)
        #expect(!FileManager.default.fileExists(atPath: stray.path))
        #expect(FileManager.default.fileExists(atPath: unrelated.path))
        storage.removeAll()
        #expect(FileManager.default.fileExists(atPath: unrelated.path))
    }

    @Test("memoryAndDisk reads memory first and refills memory from disk")
    func twoLevel() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let storage = MemoryAndDiskStorage(memory: MemoryStorage(), disk: DiskStorage(directory: directory))
        try storage.store(makeEntry("both"), for: key(1))
        #expect(storage.memory.entry(for: key(1)) != nil)
        storage.memory.removeAll()
        #expect(storage.entry(for: key(1))?.data == Data("both".utf8))
        #expect(storage.memory.entry(for: key(1)) != nil)
        let reopened = MemoryAndDiskStorage(memory: MemoryStorage(), disk: DiskStorage(directory: directory))
        #expect(reopened.entry(for: key(1))?.data == Data("both".utf8))
    }

    @Test("many tasks reading and writing at once see only whole entries", arguments: ["memory", "disk", "memoryAndDisk"])
    func concurrentAccess(kind: String) async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let storage: any CacheBackend =
            switch kind {
            case "memory": MemoryStorage(maxBytes: 200_000, maxCount: 40)
            case "disk": DiskStorage(directory: directory, maxBytes: 400_000)
            default:
                MemoryAndDiskStorage(
                    memory: MemoryStorage(maxBytes: 100_000, maxCount: 20),
                    disk: DiskStorage(directory: directory, maxBytes: 400_000))
            }
        let mismatches = await withTaskGroup(of: Int.self) { group in
            for worker in 0..<16 {
                group.addTask {
                    var bad = 0
                    for step in 0..<200 {
                        let n = (worker * 7 + step) % 50
                        if step % 3 == 0 {
                            try? storage.store(makeEntry(Self.body(n)), for: CacheKey(rawValue: "key-\(n)"))
                        } else if let entry = storage.entry(for: CacheKey(rawValue: "key-\(n)")),
                            entry.data != Data(Self.body(n).utf8)
                        {
                            bad += 1
                        }
                    }
                    return bad
                }
            }
            return await group.reduce(0, +)
        }
        #expect(mismatches == 0)
        #expect(storage.count > 0)
    }

    static func body(_ n: Int) -> String { String(repeating: "\(n % 10)", count: 500 + n * 37) }
}
