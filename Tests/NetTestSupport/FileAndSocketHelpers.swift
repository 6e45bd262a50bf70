import Foundation
#if canImport(Glibc)
    import Glibc
#endif

// Helpers shared by the test targets that talk to live servers.

/// The SHA-256 of a file as lowercase hex, computed by coreutils' `sha256sum` (fast for the
/// 64 MiB files the transfer tests use, even in debug and sanitizer builds).
public func sha256Hex(ofFile file: URL) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["sha256sum", file.path]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: output, as: UTF8.self).split(separator: " ").first.map(String.init) ?? ""
}

/// A loopback port nothing listens on: bound by the kernel's choice, read back, then closed.
public func closedLoopbackPort() -> Int {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
            _ = bind(descriptor, pointer, length)
            return getsockname(descriptor, pointer, &length)
        }
    }
    return Int(UInt16(bigEndian: address.sin_port))
}
