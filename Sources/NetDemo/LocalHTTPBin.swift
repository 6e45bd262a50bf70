#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import Foundation

/// httpbin served by gunicorn on a free loopback port, inside a ``ServerGroup`` (which stops it).
struct LocalHTTPBin {
    /// Where it answers.
    let url: URL
    /// Its gunicorn log.
    let log: URL

    /// Finds gunicorn and httpbin (see ``HTTPBinLocator``) and starts httpbin in `group`.
    /// - Returns: The server, or why there is none: what the locator tried, or how starting failed.
    static func startIfInstalled(in guarded: Result<ServerGroup, DemoError>, workDirectory: URL, verbose: Bool) async -> Result<LocalHTTPBin, DemoError> {
        let group: ServerGroup
        let command: HTTPBinCommand
        do throws(DemoError) {
            group = try guarded.get()
            let locator = HTTPBinLocator(environment: ProcessInfo.processInfo.environment, scratch: workDirectory.appendingPathComponent("probe.out"))
            command = try locator.locate().get()
        } catch {
            return .failure(error)
        }
        do {
            let server = try await start(command, in: group, workDirectory: workDirectory)
            if verbose {
                let commandLine = ([command.executable] + command.prefix).joined(separator: " ")
                print("NetDemo: started \(commandLine) (\(command.python) imports httpbin) in process group \(group.id); log: \(server.log.path)")
            }
            return .success(server)
        } catch {
            group.stop()
            return .failure(error as? DemoError ?? DemoError("\(error)"))
        }
    }

    /// Starts httpbin with `command` and waits up to 10 s for it to answer.
    /// - Throws: ``DemoError`` saying what failed, with the end of the server's log.
    static func start(_ command: HTTPBinCommand, in group: ServerGroup, workDirectory: URL) async throws -> LocalHTTPBin {
        guard let port = freePort() else { throw DemoError("no free loopback port") }
        let log = workDirectory.appendingPathComponent("httpbin.log")
        let arguments =
            command.prefix + [
                "--chdir", workDirectory.path, "-b", "127.0.0.1:\(port)", "-w", "1", "-k", "gthread", "--threads", "8",
                "--graceful-timeout", "2", "--log-level", "warning", "httpbin:app",
            ]
        let pid = try group.spawn(command.executable, arguments, output: log.path)
        let server = LocalHTTPBin(url: URL(string: "http://127.0.0.1:\(port)")!, log: log)
        for _ in 0..<100 {
            if await server.answers() { return server }
            if let status = group.exitStatusIfEnded(pid) {
                throw DemoError("\(command.executable) exited (status \(status)) before answering. \(server.logTail())")
            }
            try? await Task.sleep(for: .milliseconds(100))
        }
        throw DemoError("\(command.executable) did not answer at \(server.url.absoluteString) within 10 s. \(server.logTail())")
    }

    private func answers() async -> Bool {
        var request = URLRequest(url: url.appendingPathComponent("get"))
        request.timeoutInterval = 1
        guard let (_, response) = try? await URLSession.shared.data(for: request) else { return false }
        return (response as? HTTPURLResponse)?.statusCode == 200
    }

    private func logTail() -> String {
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        let lines = text.split(separator: "\n").suffix(5)
        return lines.isEmpty ? "Its log (\(log.path)) is empty." : "End of its log:\n    " + lines.joined(separator: "\n    ")
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
