#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// Starts httpbin on a free loopback port when it is installed (Debian's python3-httpbin or
/// PyPI's httpbin, served by gunicorn), and stops it when the demo ends.
final class LocalHTTPBin {
    let url: URL
    private let process: Process

    /// Starts httpbin, or returns `nil` when it is not installed or does not answer in 10 s.
    static func start() async -> LocalHTTPBin? {
        guard let gunicorn = which("gunicorn"), canImportHTTPBin() else { return nil }
        guard let port = freePort() else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: gunicorn)
        process.arguments = ["-b", "127.0.0.1:\(port)", "-w", "1", "-k", "gthread", "--threads", "8", "httpbin:app"]
        process.currentDirectoryURL = FileManager.default.temporaryDirectory
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        let url = URL(string: "http://127.0.0.1:\(port)")!
        let server = LocalHTTPBin(url: url, process: process)
        for _ in 0..<100 {
            if await server.answers() { return server }
            try? await Task.sleep(for: .milliseconds(100))
        }
        server.stop()
        return nil
    }

    private init(url: URL, process: Process) {
        self.url = url
        self.process = process
    }

    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }

    private func answers() async -> Bool {
        var request = URLRequest(url: url.appendingPathComponent("get"))
        request.timeoutInterval = 1
        guard let (_, response) = try? await URLSession.shared.data(for: request) else { return false }
        return (response as? HTTPURLResponse)?.statusCode == 200
    }

    private static func which(_ name: String) -> String? {
        let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return paths.map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    private static func canImportHTTPBin() -> Bool {
        guard let python = which("python3") else { return false }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["-c", "import httpbin"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }

    /// Asks the kernel for a free loopback port.
    private static func freePort() -> Int? {
        let socketDescriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socketDescriptor >= 0 else { return nil }
        defer { close(socketDescriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socketDescriptor, $0, length) }
        }
        guard bound == 0 else { return nil }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socketDescriptor, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
