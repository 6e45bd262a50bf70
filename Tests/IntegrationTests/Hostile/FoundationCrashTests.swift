import Foundation
import NetCore
import Testing
import NetTestSupport

/// FoundationNetworking (Linux, Swift 6.3.1) calls `fatalError` when a response is cut inside its
/// headers. NetKit cannot catch that in-process, so the request runs in a child process: the
/// suite survives, and the test records which of the two outcomes this Foundation gives.
@Suite(.liveServers)
struct FoundationCrashTests {
    static let childVariable = "NETKIT_FOUNDATION_CRASH_CHILD"

    /// The child's job: one URLSessionTransport request to `/cut-in-headers`; prints the error.
    @Test(
        "(child process) sends a request whose response is cut inside the headers",
        .enabled(if: ProcessInfo.processInfo.environment[childVariable] != nil))
    func cutHeadersChild() async throws {
        let error = await outcome {
            try await Provider<HostileTarget>(transport: URLSessionTransport()).request(HostileTarget(path: "/cut-in-headers"))
        }.failure
        print("NETKIT-CHILD-RESULT \(String(describing: error))")
    }

    @Test("A response cut inside its headers either fails cleanly or aborts only the child, never a success")
    func cutHeadersInChildProcess() throws {
        #if os(Linux)
            _ = try TestServers.require("NETKIT_FAULT_URL")
            let executable = try #require(try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            let process = Process()
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = ["--testing-library", "swift-testing", "--filter", "cutHeadersChild"]
            var environment = ProcessInfo.processInfo.environment
            environment[Self.childVariable] = "1"
            process.environment = environment
            let output = Pipe(), errors = Pipe()
            process.standardOutput = output
            process.standardError = errors
            try process.run()
            let pid = process.processIdentifier
            // A task, not a DispatchWorkItem: a cancelled task ends at once and frees itself, where a
            // cancelled work item stays queued until its deadline (a leak report at exit).
            let watchdog = Task {
                try await Task.sleep(for: .seconds(60))
                kill(pid, SIGKILL)
            }
            defer { watchdog.cancel() }
            let stdout = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            if let line = stdout.split(separator: "\n").first(where: { $0.contains("NETKIT-CHILD-RESULT") }) {
                // Foundation handled it: it must be an error, never a success.
                #expect(!line.contains("nil"), "a response cut inside its headers was reported as a success: \(line)")
                print("[foundation] the cut response failed cleanly: \(line)")
            } else {
                #expect(process.terminationReason == .uncaughtSignal, "the child neither answered nor crashed: \(stderr.suffix(500))")
                #expect(stderr.contains("no response") || stderr.contains("Fatal error"), "unexpected crash: \(stderr.suffix(500))")
                print("[foundation] verdict: FoundationNetworking aborts the process on a response cut inside its headers (documented in the README)")
            }
        #endif
    }
}
