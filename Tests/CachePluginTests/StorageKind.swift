import Foundation
import NetCore
import NetPlugins

/// The storages the per-user, `Vary` and `private` rules are proven on: each rule lives in the
/// plugin, but the varying values must survive the disk format too.
enum StorageKind: String, CaseIterable, Sendable, CustomStringConvertible {
    case memory, disk

    var description: String { rawValue }

    /// A fresh storage of this kind; `directory` is set for disk and removed by ``TestStorage/remove()``.
    func make(_ name: String = #function) -> TestStorage {
        switch self {
        case .memory:
            return TestStorage(storage: MemoryStorage(), directory: nil)
        case .disk:
            let directory = temporaryDirectory(name)
            return TestStorage(storage: DiskStorage(directory: directory), directory: directory)
        }
    }
}

/// A storage made for one test, with the directory to remove afterwards.
struct TestStorage {
    let storage: any CacheBackend
    let directory: URL?

    func remove() {
        if let directory { try? FileManager.default.removeItem(at: directory) }
    }

    /// The bytes of every entry file (disk only; empty for memory).
    func fileContents() throws -> [Data] {
        guard let directory else { return [] }
        return try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0.hasSuffix(".nkcache") }
            .map { try Data(contentsOf: directory.appendingPathComponent($0)) }
    }
}

extension Data {
    /// Whether `text`'s UTF-8 bytes occur anywhere in these bytes.
    func contains(text: String) -> Bool {
        range(of: Data(text.utf8)) != nil
    }
}
