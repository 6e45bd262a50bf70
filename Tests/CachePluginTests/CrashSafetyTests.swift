import Foundation
import NetCore
@testable import NetPlugins
import Testing
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Crash safety of `DiskStorage`: the real storage code runs in a child process that is killed
/// with SIGKILL at random moments; every entry read afterwards must be a miss or byte-identical
/// to what the child wrote.
///
/// The child is this test binary itself, re-executed with `--filter diskWriterChild` and
/// `NETKIT_CACHE_CHILD_DIR` set, so it uses the real `DiskStorage` (not a copy of the format).
@Suite("Disk cache crash safety")
struct CrashSafetyTests {
    static let entryCount = 1000
    static let rounds = 6
    static let childDirectoryVariable = "NETKIT_CACHE_CHILD_DIR"
    static let childGenerationVariable = "NETKIT_CACHE_CHILD_GEN"
    /// The child writes this byte to stdout after every completed `store`.
    static let progressMarker: UInt8 = 0x01

    static func key(_ index: Int) -> CacheKey { CacheKey(rawValue: "crash-entry-\(index)") }

    /// The body of entry `index` in `generation`: deterministic pseudo-random bytes, 0-6 KiB.
    static func body(index: Int, generation: Int) -> Data {
        let length = (index &* 7919 &+ generation &* 104_729) % 6_144
        var state = UInt64(truncatingIfNeeded: index &* 1_000_003 &+ generation &* 7_654_321 &+ 1)
        var bytes = [UInt8](repeating: 0, count: length)
        for offset in 0..<length {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            bytes[offset] = UInt8(truncatingIfNeeded: state >> 33)
        }
        return Data(bytes)
    }

    static func entry(index: Int, generation: Int) -> CacheEntry {
        CacheEntry(
            statusCode: 200, headers: ["X-Index": "\(index)", "X-Generation": "\(generation)"],
            data: body(index: index, generation: generation),
            storedAt: Date(timeIntervalSince1970: Double(generation)), version: generation)
    }

    /// The child's job; does nothing (and is skipped) unless the parent test started this process.
    @Test(
        "(child process) writes entries until killed",
        .enabled(if: ProcessInfo.processInfo.environment[childDirectoryVariable] != nil))
    func diskWriterChild() throws {
        let environment = ProcessInfo.processInfo.environment
        let directory = URL(fileURLWithPath: try #require(environment[Self.childDirectoryVariable]))
        let firstGeneration = Int(environment[Self.childGenerationVariable] ?? "0") ?? 0
        let storage = DiskStorage(directory: directory, maxBytes: 1 << 30)
        var marker = Self.progressMarker
        for generation in firstGeneration..<firstGeneration + 20 {
            for index in 0..<Self.entryCount {
                try storage.store(Self.entry(index: index, generation: generation), for: Self.key(index))
                _ = write(STDOUT_FILENO, &marker, 1)
            }
        }
    }

    #if os(Linux)
        @Test("entries survive SIGKILL of a writing process at random moments: each is a miss or byte-identical")
        func sigkillWhileWriting() async throws {
            let executable = try #require(
                try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"),
                "cannot locate the test binary to re-execute")
            let directory = temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            var totalHits = 0
            var totalChecked = 0
            for round in 0..<Self.rounds {
                let threshold = Int.random(in: 1...(Self.entryCount * 3 / 2))
                // Reading the child's output blocks, so it runs on a thread of its own rather than
                // holding one of the few threads the test runner shares among all tests.
                let written = try await onDedicatedThread { [self] in
                    try runChild(executable, directory: directory, generation: round * 100, killAfter: threshold)
                }
                #expect(written >= threshold, "the child stopped after \(written) writes before it was killed")
                let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path)
                    .filter { $0.hasPrefix(DiskStorage.temporaryPrefix) }
                let storage = DiskStorage(directory: directory, maxBytes: 1 << 30)
                _ = storage.count  // the first use scans the directory and removes temporary files
                let remaining = try FileManager.default.contentsOfDirectory(atPath: directory.path)
                    .filter { $0.hasPrefix(DiskStorage.temporaryPrefix) }
                #expect(remaining.isEmpty, "temporary files left after reopening and first use: \(remaining)")
                var hits = 0
                for index in 0..<Self.entryCount {
                    guard let entry = storage.entry(for: Self.key(index)) else { continue }
                    hits += 1
                    let generation = try #require(entry.headers["X-Generation"].flatMap { Int($0) })
                    #expect(
                        entry == Self.entry(index: index, generation: generation),
                        "entry \(index) differs from generation \(generation) as written")
                    #expect(generation <= round * 100 + 19)
                }
                totalHits += hits
                totalChecked += Self.entryCount
                print(
                    "[crash-safety] round \(round): killed after \(written)+ reported writes; \(leftovers.count) temporary file(s) left; \(hits) hits, \(Self.entryCount - hits) misses"
                )
            }
            #expect(totalHits > 0, "no entry survived any round, so nothing was verified")
            #expect(totalChecked == Self.entryCount * Self.rounds)
        }

        /// Runs the writer child and kills it with SIGKILL once it reports `killAfter` completed
        /// writes. Returns how many writes it reported.
        private func runChild(_ executable: String, directory: URL, generation: Int, killAfter: Int) throws -> Int {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = ["--testing-library", "swift-testing", "--filter", "diskWriterChild"]
            var environment = ProcessInfo.processInfo.environment
            environment[Self.childDirectoryVariable] = directory.path
            environment[Self.childGenerationVariable] = String(generation)
            process.environment = environment
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            // A watchdog, not a wait: a child that hangs must not hang the suite.
            let pid = process.processIdentifier
            // A task, not a DispatchWorkItem: a cancelled task ends at once and frees itself, where a
            // cancelled work item stays queued until its deadline (a leak report at exit).
            let watchdog = Task {
                try await Task.sleep(for: .seconds(120))
                kill(pid, SIGKILL)
            }
            defer { watchdog.cancel() }
            var written = 0
            while written < killAfter {
                let chunk = output.fileHandleForReading.availableData
                if chunk.isEmpty { break }  // the child exited
                written += chunk.reduce(0) { $0 + ($1 == Self.progressMarker ? 1 : 0) }
            }
            // Not a wait for anything: a random extra 0-4 ms moves the kill to a random point of a
            // later write (hashing, writing the temporary file, renaming) instead of just after a marker.
            usleep(UInt32.random(in: 0...4000))
            kill(pid, SIGKILL)
            process.waitUntilExit()
            return written
        }
    #endif

    @Test("simulated crash debris (truncated entries, partial temporary files) reads as misses or whole entries")
    func simulatedDebris() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let storage = DiskStorage(directory: directory)
        for index in 0..<200 { try storage.store(Self.entry(index: index, generation: 1), for: Self.key(index)) }
        var damaged = Set<Int>()
        for index in stride(from: 0, to: 200, by: 3) {
            let path = directory.appendingPathComponent(Self.key(index).digest + DiskStorage.fileExtension)
            let bytes = try Data(contentsOf: path)
            try bytes.prefix(Int.random(in: 0..<bytes.count)).write(to: path)
            damaged.insert(index)
        }
        for n in 0..<10 {
            try Data(repeating: 0xAB, count: n * 100)
                .write(to: directory.appendingPathComponent(DiskStorage.temporaryPrefix + "debris-\(n)"))
        }
        let reopened = DiskStorage(directory: directory)
        for index in 0..<200 {
            let entry = reopened.entry(for: Self.key(index))
            if damaged.contains(index) {
                #expect(entry == nil)
            } else {
                #expect(entry == Self.entry(index: index, generation: 1))
            }
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(names.count == 200 - damaged.count)
        #expect(reopened.count == 200 - damaged.count)
    }
}

/// Runs blocking work on a new thread and waits for it without blocking a concurrency thread.
func onDedicatedThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try work() }) }.start()
    }
}
