import NetToolbox
import Foundation
import NetCore
import Testing

/// Process resources (Linux `/proc`), for the leak checks of the reliability suites.
enum ProcessProbe {
    /// The number of open file descriptors (entries of `/proc/self/fd`, minus the one listing it).
    static func openDescriptors() -> Int {
        guard let directory = opendir("/proc/self/fd") else { return -1 }
        defer { closedir(directory) }
        var count = 0
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { count += 1 }
        }
        return count - 1  // the descriptor of the listing itself
    }

    /// What each open descriptor points at (`socket:[…]`, `pipe:[…]`, `anon_inode:[eventfd]`, paths),
    /// for failure messages that say what leaked.
    static func descriptorTargets() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return names.compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)") }.sorted()
    }

    /// The entries of `after` beyond those in `before` (a multiset difference).
    static func added(_ after: [String], over before: [String]) -> [String] {
        var remaining = before
        return after.filter { target in
            if let index = remaining.firstIndex(of: target) {
                remaining.remove(at: index)
                return false
            }
            return true
        }
    }

    /// Resident memory in bytes (`VmRSS` of `/proc/self/status`).
    static func residentBytes() -> Int { statusField("VmRSS:") }

    /// Peak resident memory in bytes (`VmHWM`).
    static func peakResidentBytes() -> Int { statusField("VmHWM:") }

    private static func statusField(_ name: String) -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix(name) }),
            let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "")
        else { return -1 }
        return kilobytes * 1024
    }

    /// The descriptor count once it is at most `limit`, or the last count after `timeout`.
    ///
    /// Polls on purpose: a released `CurlTransport` closes its sockets on its own loop thread after
    /// `deinit` (shutdown is a queued command with no completion signal), and URLSession invalidates
    /// asynchronously, so there is nothing to await.
    static func openDescriptors(settlingAtMost limit: Int, within timeout: Duration = .seconds(5)) async -> Int {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        var count = openDescriptors()
        while count > limit, clock.now < deadline {
            try? await Task.sleep(for: .milliseconds(20))
            count = openDescriptors()
        }
        return count
    }

    static func mebibytes(_ bytes: Int) -> String {
        String(format: "%.1f MiB", Double(bytes) / 1_048_576)
    }
}

/// Workload sizes: full in a normal run, a fifth under the sanitizers (`NETKIT_SANITIZER=1`),
/// which slow every request down several times.
enum Workload {
    static var underSanitizer: Bool { ProcessInfo.processInfo.environment["NETKIT_SANITIZER"] == "1" }

    static func scaled(_ count: Int) -> Int {
        underSanitizer ? max(1, count / 5) : count
    }
}

/// Runs `operation` in its own task and returns its value, or `nil` if it has not finished after
/// `limit`: the caller is never held hostage by a hang (the stuck task is left behind, cancelled).
func withinDeadline<T: Sendable>(_ limit: Duration, _ operation: @escaping @Sendable () async -> T) async -> T? {
    let work = Task { await operation() }
    let outcome = Locked<CheckedContinuation<T?, Never>?>(nil)
    let finish: @Sendable (T?) -> Void = { value in
        outcome.withLock { continuation in
            continuation?.resume(returning: value)
            continuation = nil
        }
    }
    return await withCheckedContinuation { (continuation: CheckedContinuation<T?, Never>) in
        outcome.withLock { $0 = continuation }
        Task { finish(await work.value) }
        Task {
            try? await Task.sleep(for: limit)
            work.cancel()
            finish(nil)
        }
    }
}

/// The names in `folder`, sorted (hidden ones included).
func folderContents(_ folder: URL) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
}

/// Counts a provider's attempts and failed attempts (every plugin sees every attempt).
final class AttemptCounter: Plugin {
    private let counts = Locked((attempts: 0, failures: 0))

    var attempts: Int { counts.withLock { $0.attempts } }
    var failures: Int { counts.withLock { $0.failures } }

    func willSend(_ request: Request) async -> SendAction {
        counts.withLock { $0.attempts += 1 }
        return .proceed
    }

    func failure(_ error: NetworkError, for request: Request) async -> FailureAction {
        counts.withLock { $0.failures += 1 }
        return .proceed
    }
}
