import Foundation

/// A fresh folder under ``ScratchFolders/root`` for one test, removed when the value goes away.
public struct TemporaryDirectory: ~Copyable {
    /// Where the folder is.
    public let url: URL

    /// Makes the folder.
    public init() throws {
        url = ScratchFolders.root.appendingPathComponent("directory-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// Writes `contents` to a file called `name` in the folder and returns its URL.
    public func file(_ name: String, contents: Data) throws -> URL {
        let file = url.appendingPathComponent(name)
        try contents.write(to: file)
        return file
    }

    deinit { try? FileManager.default.removeItem(at: url) }
}
