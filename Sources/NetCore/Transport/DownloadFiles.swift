import Foundation

/// File moves shared by transports: a download lands at its destination only when complete.
public enum DownloadFiles {
    /// Moves `source` to `destination`, creating intermediate directories and replacing an
    /// existing file only now that the download is complete.
    public static func moveIntoPlace(_ source: URL, to destination: URL) throws {
        let manager = FileManager.default
        try manager.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
        if manager.fileExists(atPath: destination.path) {
            _ = try manager.replaceItemAt(destination, withItemAt: source)
        } else {
            try manager.moveItem(at: source, to: destination)
        }
    }

    /// Writes `data` to `destination` atomically, creating intermediate directories.
    public static func place(_ data: Data, at destination: URL) throws {
        try FileManager.default.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: destination, options: .atomic)
    }

    /// A fresh temporary file URL in the same directory as `destination`, so the final move is a rename.
    public static func temporaryURL(beside destination: URL) -> URL {
        destination.deletingLastPathComponent()
            .appendingPathComponent(".\(destination.lastPathComponent).\(UUID().uuidString).netkit-tmp")
    }
}
