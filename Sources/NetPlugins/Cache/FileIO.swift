#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Small POSIX file helpers for ``DiskStorage``: a hit must cost one open and one read, and a
/// write must be a temporary file renamed into place.
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
    static func read(_ path: String) throws(Failure) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        if descriptor < 0 {
            if errno == ENOENT { return nil }
            throw .system(operation: "open", path: path, code: errno)
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw .system(operation: "stat", path: path, code: errno) }
        let size = Int(info.st_size)
        var bytes = [UInt8](repeating: 0, count: size)
        var done = 0
        while done < size {
            let count = bytes.withUnsafeMutableBytes { buffer in
                Glue.read(descriptor, buffer.baseAddress! + done, size - done)
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw .system(operation: "read", path: path, code: errno)
            }
            if count == 0 { break }
            done += count
        }
        if done < size { bytes.removeSubrange(done...) }
        return bytes
    }

    /// Writes `bytes` to a new temporary file in `directory`, then renames it to `path`, so a
    /// reader (or a process killed mid-write) sees the old file, the new one, or none.
    static func writeAtomically(_ bytes: [UInt8], to path: String, directory: String) throws(Failure) {
        let temporary = directory + "/" + DiskStorage.temporaryPrefix + UUID().uuidString
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .system(operation: "create", path: temporary, code: errno) }
        var done = 0
        while done < bytes.count {
            let count = bytes.withUnsafeBytes { buffer in
                Glue.write(descriptor, buffer.baseAddress! + done, bytes.count - done)
            }
            if count < 0 {
                if errno == EINTR { continue }
                let code = errno
                close(descriptor)
                unlink(temporary)
                throw .system(operation: "write", path: temporary, code: code)
            }
            done += count
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

    /// Module-qualified libc calls (names that `Foundation` types shadow).
    private enum Glue {
        static func read(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
            #if canImport(Darwin)
            Darwin.read(descriptor, buffer, count)
            #elseif canImport(Musl)
            Musl.read(descriptor, buffer, count)
            #else
            Glibc.read(descriptor, buffer, count)
            #endif
        }

        static func write(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
            #if canImport(Darwin)
            Darwin.write(descriptor, buffer, count)
            #elseif canImport(Musl)
            Musl.write(descriptor, buffer, count)
            #else
            Glibc.write(descriptor, buffer, count)
            #endif
        }
    }
}
