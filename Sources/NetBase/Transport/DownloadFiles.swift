import Foundation

/// File moves shared by transports: a download lands at its destination only when complete.
package enum DownloadFiles {
    /// Moves `source` to `destination`, creating intermediate directories and replacing an
    /// existing file only now that the download is complete.
    package static func moveIntoPlace(_ source: URL, to destination: URL) throws {
        try FileManager.default.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
        // rename(2) replaces an existing destination atomically (same file system).
        if rename(source.path, destination.path) != 0 {
            let code = errno
            guard code == EXDEV else {
                throw CocoaError(
                    .fileWriteUnknown,
                    userInfo: [
                        NSFilePathErrorKey: destination.path,
                        NSUnderlyingErrorKey: POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO),
                    ])
            }
            let staging = temporaryURL(beside: destination)
            try FileManager.default.copyItem(at: source, to: staging)
            try FileManager.default.removeItem(at: source)
            guard rename(staging.path, destination.path) == 0 else {
                try? FileManager.default.removeItem(at: staging)
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: destination.path])
            }
        }
    }

    /// Writes `data` to `destination` atomically, creating intermediate directories.
    package static func place(_ data: Data, at destination: URL) throws {
        try FileManager.default.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: destination, options: .atomic)
    }

    /// A fresh temporary file URL in the same directory as `destination`, so the final move is a rename.
    package static func temporaryURL(beside destination: URL) -> URL {
        destination.deletingLastPathComponent()
            .appendingPathComponent(".\(destination.lastPathComponent).\(UUID().uuidString).netkit-tmp")
    }
}
