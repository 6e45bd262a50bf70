import Foundation
@testable import NetBase
@testable import NetCore
@testable import NetCurl
import Synchronization
import NetTestSupport
import Testing

@Suite("A transport's loops do not wait for each other", .timeLimit(.minutes(1)))
struct CurlLoopIsolationTests {
    @Test(.liveServers) func aCallOnAnotherLoopCompletesWhileOneLoopIsHeld() async throws {
        let fault = try TestServers.require("NETKIT_FAULT_URL")
        let nginx = try TestServers.require("NETKIT_NGINX_URL")
        let transport = CurlTransport(configuration: .init(eventLoops: 2))
        // A fresh transport places its first transfer on the first loop (the executor's).
        let hanging = Task { try await transport.send(Request.to(fault.appendingPathComponent("hang"), timeout: .seconds(30))) }
        try await Task.sleep(for: .milliseconds(200))
        // Hold the first loop's thread, as a captive libcurl call or a blocking task would.
        let holder = LoopHolder()
        let held = Task(executorPreference: transport.executor) { holder.hold() }
        while !holder.isHolding { try await Task.sleep(for: .milliseconds(5)) }
        // The first loop has a transfer, the second none: the call goes to the second and is
        // answered although the first loop cannot run.
        let response = try await transport.send(Request.to(nginx.appendingPathComponent("small.json"), timeout: .seconds(5)))
        let heldUntilAnswered = holder.isHolding
        holder.release()
        #expect(await held.value, "the first loop was held until released, not until its 10 s limit")
        #expect(response.statusCode == 200)
        #expect(heldUntilAnswered, "the call was answered while the first loop was still held")
        hanging.cancel()
        let error = await networkError { try await hanging.value }
        #expect(error?.isCancellation == true, "got \(String(describing: error))")
    }

    @Test(.liveServers) func everyLoopServesRequestsAndEndsThemOnCancel() async throws {
        let nginx = try TestServers.require("NETKIT_NGINX_URL")
        let fault = try TestServers.require("NETKIT_FAULT_URL")
        let transport = CurlTransport(configuration: .init(eventLoops: 3))
        // Three hanging transfers land one on each loop; each is cancelled by its own loop.
        let hanging = (0..<3).map { _ in
            Task { try await transport.send(Request.to(fault.appendingPathComponent("hang"), timeout: .seconds(30))) }
        }
        try await Task.sleep(for: .milliseconds(200))
        let request = Request.to(nginx.appendingPathComponent("small.json"))
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<12 { group.addTask { try await transport.send(request).statusCode } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(statuses == Array(repeating: 200, count: 12))
        for task in hanging { task.cancel() }
        for task in hanging {
            let error = await networkError { try await task.value }
            #expect(error?.isCancellation == true, "got \(String(describing: error))")
        }
    }
}

/// Blocks the thread that calls ``hold()`` until ``release()`` (or 10 s pass).
private final class LoopHolder: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)
    private let holding = Atomic<Bool>(false)

    var isHolding: Bool { holding.load(ordering: .acquiring) }

    /// Returns true when released, false after the 10 s limit.
    func hold() -> Bool {
        holding.store(true, ordering: .releasing)
        defer { holding.store(false, ordering: .releasing) }
        return semaphore.wait(timeout: .now() + 10) == .success
    }

    func release() { semaphore.signal() }
}
