import Foundation
import NetCore
import Testing
import NetTestSupport

/// A thousand requests, each cancelled at a random moment: every one ends, as cancelled or
/// completed, and nothing is left behind (descriptors, temporary or partial files).
@Suite(.liveServers, .serialized)
struct CancellationStormTests {
    /// The kinds of request in the storm, in rotation.
    enum Shape: CaseIterable {
        /// 20 bytes over 200 ms: a cancellation lands before, during or after the body.
        case dripData
        /// The same slow body, downloaded to a file.
        case dripDownload
        /// 256 KiB downloaded fast: often complete before the cancellation.
        case rangeDownload
        /// A tiny answer: usually complete before the cancellation.
        case quick
    }

    /// One storm request.
    struct StormTarget: TargetType {
        var shape: Shape
        var index: Int
        var folder: URL

        var baseURL: URL { TestServers.fault ?? URL(string: "http://127.0.0.1:9")! }
        var path: String {
            switch shape {
            case .dripData, .dripDownload: "/drip"
            case .rangeDownload: "/range/\(CancellationStormTests.rangeSize)"
            case .quick: "/load"
            }
        }
        var method: HTTPMethod { .get }
        var timeout: Duration? { .seconds(10) }
        var destination: URL { folder.appendingPathComponent("file-\(index).bin") }
        var content: RequestContent {
            switch shape {
            case .dripData: .query(["count": 20, "interval_ms": 10])
            case .dripDownload: RequestContent.download(to: destination, resumable: false).addingQuery(["count": 20, "interval_ms": 10])
            case .rangeDownload: .download(to: destination, resumable: false)
            case .quick: .query(["key": "storm-\(index)"])
            }
        }
    }

    enum Outcome: Sendable, Equatable {
        case completed
        case cancelled
        case wrong(String)
    }

    static let rangeSize = 256 << 10
    static var count: Int { Workload.scaled(1_000) }
    static let window = 64

    /// Sends every request `window` at a time, cancelling each after a random 0-200 ms.
    static func storm(_ kind: TransportKind, folder: URL) async -> [Int: Outcome] {
        let provider = Provider<StormTarget>(transport: kind.make())
        let shapes = Shape.allCases
        return await withTaskGroup(of: (Int, Outcome).self) { group in
            var outcomes: [Int: Outcome] = [:]
            var next = 0
            func launch() {
                let target = StormTarget(shape: shapes[next % shapes.count], index: next, folder: folder)
                group.addTask {
                    let task = Task { try await provider.request(target) }
                    try? await Task.sleep(for: .milliseconds(Int.random(in: 0...200)))
                    task.cancel()
                    return (target.index, outcome(of: await task.result, for: target))
                }
                next += 1
            }
            while next < min(window, count) { launch() }
            while let (index, outcome) = await group.next() {
                outcomes[index] = outcome
                if next < count { launch() }
            }
            return outcomes
        }
    }

    /// Cancelled, or complete and correct; anything else is wrong.
    static func outcome(of result: Result<Response, any Error>, for target: StormTarget) -> Outcome {
        switch result {
        case .failure(let error):
            if case .cancelled? = error as? NetworkError { return .cancelled }
            return .wrong("\(target.shape) \(target.index) failed: \(error)")
        case .success(let response):
            switch target.shape {
            case .dripData:
                return response.data == Data(repeating: UInt8(ascii: "*"), count: 20) ? .completed : .wrong("drip body \(response.data.count) bytes")
            case .quick:
                return response.string()?.contains("storm-\(target.index)") == true ? .completed : .wrong("quick body \(response.string() ?? "")")
            case .dripDownload, .rangeDownload:
                let expected = target.shape == .dripDownload ? Data(repeating: UInt8(ascii: "*"), count: 20) : rangeBytes(count: rangeSize)
                guard response.fileURL == target.destination, (try? Data(contentsOf: target.destination)) == expected else {
                    return .wrong("\(target.shape) \(target.index) completed without the exact file")
                }
                return .completed
            }
        }
    }

    @Test(
        "Requests cancelled at random moments all end cancelled or complete, leaving no descriptors or temporary files",
        arguments: TransportKind.allCases)
    func storm(kind: TransportKind) async throws {
        _ = try TestServers.require("NETKIT_FAULT_URL")
        let folder = try TemporaryFiles.directory()
        defer { try? FileManager.default.removeItem(at: folder) }
        // Warm-up, as in LoadTests: process-wide resources of the first transport stay.
        _ = try? await Provider<StormTarget>(transport: kind.make()).request(StormTarget(shape: .quick, index: -1, folder: folder))
        let descriptorsBefore = await ProcessProbe.openDescriptors(settlingAtMost: 0, within: .milliseconds(300))
        let targetsBefore = ProcessProbe.descriptorTargets()

        let clock = ContinuousClock()
        let start = clock.now
        // Bounded: a hung request fails the test instead of hanging the suite.
        guard let outcomes = await withinDeadline(.seconds(30), { await Self.storm(kind, folder: folder) }) else {
            Issue.record("the storm did not end within 30 s: a request hangs after cancellation")
            return
        }
        let elapsed = clock.now - start
        let descriptorsAfter = await ProcessProbe.openDescriptors(settlingAtMost: descriptorsBefore)

        let cancelled = outcomes.values.filter { $0 == .cancelled }.count
        let completed = outcomes.values.filter { $0 == .completed }.count
        let wrong = outcomes.values.compactMap { if case .wrong(let text) = $0 { text } else { nil } }
        print(
            "[CancellationStormTests] \(kind): \(Self.count) requests in \(elapsed): \(cancelled) cancelled, "
                + "\(completed) completed, \(wrong.count) wrong; fds \(descriptorsBefore) -> \(descriptorsAfter)")

        #expect(outcomes.count == Self.count)
        #expect(wrong.isEmpty, "\(wrong.count) wrong outcomes, first: \(wrong.prefix(5))")
        // Both outcomes happened, so the storm exercised cancellation at different moments.
        #expect(cancelled > 0 && completed > 0)
        // Under a sanitizer, a report matched by a suppression starts the sanitizer's symbolizer,
        // a child process the runtime keeps two pipes to for the rest of the run (each shows as one
        // `pipe:` descriptor); anything else left open is a leak.
        let added = ProcessProbe.added(ProcessProbe.descriptorTargets(), over: targetsBefore)
        let symbolizerOnly = Workload.underSanitizer && !added.isEmpty && added.allSatisfy { $0.hasPrefix("pipe:") }
        #expect(
            descriptorsAfter <= descriptorsBefore || symbolizerOnly,
            """
            descriptors \(descriptorsBefore) -> \(descriptorsAfter), new: \(added)
            """)

        // No temporary or partial file is left, every completed download is in place...
        let downloads = Set(outcomes.keys.filter { [.dripDownload, .rangeDownload].contains(Shape.allCases[$0 % Shape.allCases.count]) })
        let completedFiles = Set(downloads.filter { outcomes[$0] == .completed }.map { "file-\($0).bin" })
        let contents = Set(folderContents(folder))
        #expect(contents.allSatisfy { $0.hasPrefix("file-") && $0.hasSuffix(".bin") }, "left behind: \(contents.filter { !$0.hasPrefix("file-") }.prefix(5))")
        #expect(completedFiles.isSubset(of: contents))
        // ...and a download reported cancelled never lands at its destination.
        let landedAfterCancel = contents.subtracting(completedFiles).sorted()
        #expect(landedAfterCancel.isEmpty, "\(landedAfterCancel.count) cancelled downloads landed: \(landedAfterCancel.prefix(5))")
    }
}
