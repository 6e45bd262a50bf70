import NetToolbox
import Foundation
import NetCore

/// Small POSIX file helpers for ``DiskStorage``: a hit must cost one open, one read and one
/// close, and a write must be a temporary file renamed into place.
enum FileIO {
    enum Failure: Error, CustomStringConvertible {
        case system(operation: String, path: String, code: Int32)

        var description: String {
            switch self {
            case .system(let operation, let path, let code):
                "\(operation) \(path) failed: \(String(cString: strerror(code)))"
            }
        }

        var isNotFound: Bool {
            if case .system(_, _, let code) = self { return code == ENOENT }
            return false
        }
    }

    /// The whole file, or `nil` when it does not exist.
    ///
    /// - Parameters:
    ///   - expectedSize: The size the caller believes the file has. With it, one read of one
    ///     byte more than that ends at the end of a regular file, so no `fstat` is needed; a file
    ///     that grew is read on to its end. Without it, the size comes from `fstat` and reading
    ///     goes on until `read` returns 0.
    ///   - limit: The most bytes read; a longer file (or a device) fails with `EFBIG`.
    static func read(_ path: String, expectedSize: Int? = nil, limit: Int = .max) throws(Failure) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        if descriptor < 0 {
            if errno == ENOENT { return nil }
            throw .system(operation: "open", path: path, code: errno)
        }
        defer { close(descriptor) }
        let capacity: Int
        if let expectedSize {
            capacity = expectedSize + 1
        } else {
            var info = stat()
            guard fstat(descriptor, &info) == 0 else { throw .system(operation: "stat", path: path, code: errno) }
            capacity = Int(info.st_size) + 1
        }
        // One byte past the limit shows that a file is longer than it.
        let ceiling = limit == .max ? Int.max : limit + 1
        var bytes = [UInt8](repeating: 0, count: min(max(capacity, 1), ceiling))
        var done = 0
        while true {
            if done == bytes.count {
                guard done <= limit else { throw .system(operation: "read", path: path, code: EFBIG) }
                bytes.append(contentsOf: repeatElement(0, count: max(1, min(bytes.count, ceiling - bytes.count))))
            }
            let count = bytes.withUnsafeMutableBytes { buffer in
                POSIX.read(descriptor, buffer.baseAddress! + done, buffer.count - done)
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw .system(operation: "read", path: path, code: errno)
            }
            done += count
            if count == 0 { break }
            // With a trusted size, a short read is the end of a regular file (one call saved);
            // otherwise read on until 0, since some file systems return reads in pieces.
            if expectedSize != nil, done < bytes.count { break }
        }
        bytes.removeSubrange(done...)
        return bytes
    }

    /// Writes `bytes` to a new temporary file in `directory`, then renames it to `path`, so a
    /// reader (or a process killed mid-write) sees the old file, the new one, or none.
    static func writeAtomically(_ bytes: [UInt8], to path: String, directory: String) throws(Failure) {
        let temporary = directory + "/" + DiskStorage.temporaryPrefix + UUID().uuidString
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .system(operation: "create", path: temporary, code: errno) }
        let failure = bytes.withUnsafeBytes { POSIX.writeAll(descriptor, $0) }
        guard failure == 0 else {
            close(descriptor)
            unlink(temporary)
            throw .system(operation: "write", path: temporary, code: failure)
        }
        close(descriptor)
        guard rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw .system(operation: "rename", path: path, code: code)
        }
    }

    /// Removes a file; a missing file is fine.
    static func remove(_ path: String) {
        unlink(path)
    }
}
