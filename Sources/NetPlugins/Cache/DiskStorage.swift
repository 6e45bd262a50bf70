import NetToolbox
import Foundation
import NetCore

/// Cache storage in a directory: one file per entry, named after the SHA-256 of its key.
///
/// - Each file carries the key, the metadata, the body and a SHA-256 checksum (see the format
///   in `EntryFile.swift`). A truncated, corrupt, zero-length or foreign file is a miss and is
///   removed; reading never crashes.
/// - Writes go to a temporary file in the same directory that is then renamed over the entry
///   (atomic on POSIX file systems), so a process killed at any moment leaves the old entry, the
///   new one, or a stray temporary file, which the next `DiskStorage` on the directory removes.
///   Files are not `fsync`ed: the guarantee covers killed processes, not power loss (where the
///   checksum still turns a torn file into a miss).
/// - Total file bytes are bounded; the least recently used entries are removed first. The
///   recency index is built once from the files' modification dates at the storage's first use
///   (through ``CacheStorage``: on the file queue; creating the storage touches no file) and kept
///   in memory: a hit reads one file and never scans the directory.
/// - Several instances (and processes) may share a directory; each bounds the files it knows.
///
/// Only files ending in `.nkcache` (and its own temporary files) are ever touched.
package final class DiskStorage: CacheBackend {
    static let fileExtension = ".nkcache"
    static let temporaryPrefix = ".nkcache-tmp-"

    private struct Index {
        var sizes: [String: Int] = [:]
        var order = LRUList<String>()
        var bytes = 0

        mutating func record(_ name: String, size: Int) {
            bytes += size - (sizes.updateValue(size, forKey: name) ?? 0)
            order.touch(name)
        }

        mutating func forget(_ name: String) {
            guard let size = sizes.removeValue(forKey: name) else { return }
            bytes -= size
            order.remove(name)
        }

        /// Forgets least recently used entries until the total is within `maxBytes`, stopping at
        /// `kept` (the entry just written); returns the names forgotten, whose files go next.
        mutating func evict(toFit maxBytes: Int, keeping kept: String? = nil) -> [String] {
            var victims: [String] = []
            while bytes > maxBytes, let oldest = order.oldest, oldest != kept {
                forget(oldest)
                victims.append(oldest)
            }
            return victims
        }
    }

    /// The directory holding the entry files.
    package let directory: URL
    /// The most file bytes kept before evicting least recently used entries.
    package let maxBytes: Int
    private let directoryPath: String
    private let index = Locked(Index())
    /// Whether the directory has been scanned into `index`. Held during the scan, so a second
    /// first use waits for it; always taken before `index`'s lock, never inside it.
    private let isLoaded = Locked(false)

    /// A storage on a cache directory. Touches no file: the directory is created (when missing),
    /// its leftover temporary files removed and its entries indexed by modification date at the
    /// first operation.
    /// - Parameters:
    ///   - directory: The cache's own directory.
    ///   - maxBytes: The bound on total file bytes. Default 256 MiB.
    package init(directory: URL, maxBytes: Int = 256 * 1024 * 1024) {
        self.directory = directory
        self.directoryPath = directory.standardizedFileURL.path
        self.maxBytes = max(0, maxBytes)
    }

    package func entry(for key: CacheKey) -> CacheEntry? {
        loadIndexOnce()
        let name = key.digest + Self.fileExtension
        let path = directoryPath + "/" + name
        let knownSize = index.withLock { $0.sizes[name] }
        guard let bytes = try? FileIO.read(path, expectedSize: knownSize, limit: maxBytes) else {
            index.withLock { $0.forget(name) }
            return nil
        }
        guard let entry = EntryFile.decode(bytes, key: key) ?? reread(path, key: key, afterTrusting: knownSize) else {
            FileIO.remove(path)
            index.withLock { $0.forget(name) }
            return nil
        }
        index.withLock { $0.record(name, size: bytes.count) }
        return entry
    }

    /// Reads a file that did not decode once more, sized by `fstat`, when the first read trusted
    /// the index's size: a file is only removed as invalid when it is invalid either way.
    private func reread(_ path: String, key: CacheKey, afterTrusting knownSize: Int?) -> CacheEntry? {
        guard knownSize != nil, let bytes = try? FileIO.read(path, limit: maxBytes) else { return nil }
        return EntryFile.decode(bytes, key: key)
    }

    package func store(_ entry: CacheEntry, for key: CacheKey) throws {
        loadIndexOnce()
        let name = key.digest + Self.fileExtension
        let bytes = EntryFile.encode(entry, key: key)
        guard bytes.count <= maxBytes else {
            remove(for: key)
            return
        }
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        do {
            try FileIO.writeAtomically(bytes, to: directoryPath + "/" + name, directory: directoryPath)
        } catch {
            throw NetworkError.fileSystem(reason: "could not write a cache entry in \(directoryPath): \(error)", underlying: error)
        }
        let victims = index.withLock { index -> [String] in
            index.record(name, size: bytes.count)
            return index.evict(toFit: maxBytes, keeping: name)
        }
        for victim in victims { FileIO.remove(directoryPath + "/" + victim) }
    }

    package func remove(for key: CacheKey) {
        loadIndexOnce()
        let name = key.digest + Self.fileExtension
        FileIO.remove(directoryPath + "/" + name)
        index.withLock { $0.forget(name) }
    }

    package func removeAll() {
        loadIndexOnce()
        index.withLock { $0 = Index() }
        for name in (try? FileManager.default.contentsOfDirectory(atPath: directoryPath)) ?? []
        where name.hasSuffix(Self.fileExtension) || name.hasPrefix(Self.temporaryPrefix) {
            FileIO.remove(directoryPath + "/" + name)
        }
    }

    package var totalBytes: Int {
        loadIndexOnce()
        return index.withLock { $0.bytes }
    }

    package var count: Int {
        loadIndexOnce()
        return index.withLock { $0.sizes.count }
    }

    /// Every operation reads or writes files.
    package var touchesFiles: Bool { true }

    /// Nothing is in memory but the index.
    package func memoryEntry(for key: CacheKey) -> CacheEntry? { nil }

    /// Creates the directory, removes leftover temporary files and indexes the entries, the
    /// first time any operation runs.
    private func loadIndexOnce() {
        isLoaded.withLock { isLoaded in
            guard !isLoaded else { return }
            isLoaded = true
            loadIndex()
        }
    }

    private func loadIndex() {
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directoryPath)) ?? []
        var found: [(name: String, size: Int, date: Date)] = []
        for name in names {
            let path = directoryPath + "/" + name
            if name.hasPrefix(Self.temporaryPrefix) {
                FileIO.remove(path)
                continue
            }
            guard name.hasSuffix(Self.fileExtension),
                let attributes = try? FileManager.default.attributesOfItem(atPath: path)
            else { continue }
            let size = (attributes[.size] as? NSNumber)?.intValue ?? 0
            let date = attributes[.modificationDate] as? Date ?? .distantPast
            found.append((name, size, date))
        }
        found.sort { $0.date < $1.date }
        let victims = index.withLock { index -> [String] in
            for file in found { index.record(file.name, size: file.size) }
            return index.evict(toFit: maxBytes)
        }
        for victim in victims { FileIO.remove(directoryPath + "/" + victim) }
    }
}
