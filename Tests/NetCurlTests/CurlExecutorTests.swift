import NetToolbox
import Foundation
import NetCore
@testable import NetBase
@testable import NetCore
@testable import NetCurl
import Testing
import NetTestSupport

@Suite("CurlTransport's loop executor", .timeLimit(.minutes(1)))
struct CurlExecutorTests {
    @Test(.liveServers) func aTaskPreferringTheExecutorRunsOnTheLoopThreadAndCompletesRequests() async throws {
        let nginx = try TestServers.require("NETKIT_NGINX_URL")
        let transport = CurlTransport()
        let request = Request.to(nginx.appendingPathComponent("small.json"))
        let (onLoop, statuses) = try await withTaskExecutorPreference(transport.executor) {
            var onLoop = [transport.isOnLoopThread]
            var statuses: [Int] = []
            for _ in 0..<20 {
                statuses.append(try await transport.send(request).statusCode)
                onLoop.append(transport.isOnLoopThread)
            }
            return (onLoop, statuses)
        }
        #expect(statuses == Array(repeating: 200, count: 20))
        #expect(onLoop.allSatisfy { $0 }, "\(onLoop)")
        #expect(!transport.isOnLoopThread, "the caller leaves the loop thread after the scope")
    }

    /// Records whether the call's hooks run on the transport's loop thread.
    struct LoopThreadProbe: Plugin {
        let transport: CurlTransport
        let seen: Locked<[Bool]>
        func succeed(_ response: Response, for request: Request) async -> SucceedAction {
            seen.withLock { $0.append(transport.isOnLoopThread) }
            return .proceed
        }
    }

    @Test(.liveServers) func aProviderCallFromATaskPreferringTheExecutorStaysOnTheLoopThread() async throws {
        let nginx = try TestServers.require("NETKIT_NGINX_URL")
        let transport = CurlTransport()
        let seen = Locked<[Bool]>([])
        let provider = Provider<AnyTarget>(transport: transport, plugins: [LoopThreadProbe(transport: transport, seen: seen)])
        let target = AnyTarget(TestTarget(baseURL: nginx, path: "/small.json"))
        let onLoop = try await withTaskExecutorPreference(transport.executor) {
            var onLoop: [Bool] = []
            for _ in 0..<10 {
                _ = try await provider.request(target)
                onLoop.append(transport.isOnLoopThread)
            }
            return onLoop
        }
        #expect(onLoop.allSatisfy { $0 }, "the caller after each call: \(onLoop)")
        #expect(seen.withLock { $0 }.allSatisfy { $0 }, "the call's own hooks: \(seen.withLock { $0 })")
        #expect(seen.withLock { $0.count } == 10)
    }

    @Test(.liveServers) func concurrentTasksOnTheExecutorAllFinish() async throws {
        let nginx = try TestServers.require("NETKIT_NGINX_URL")
        let transport = CurlTransport()
        let provider = Provider<AnyTarget>(transport: transport)
        let target = AnyTarget(TestTarget(baseURL: nginx, path: "/small.json"))
        let codes = try await withThrowingTaskGroup(of: [Int].self) { group in
            for _ in 0..<8 {
                group.addTask(executorPreference: transport.executor) {
                    var codes: [Int] = []
                    for _ in 0..<25 { codes.append(try await provider.request(target).statusCode) }
                    return codes
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        #expect(codes.count == 200)
        #expect(codes.allSatisfy { $0 == 200 })
    }

    @Test(.liveServers) func cancellationStillEndsARequestOnTheExecutor() async throws {
        let fault = try TestServers.require("NETKIT_FAULT_URL")
        let transport = CurlTransport()
        let request = Request.to(fault.appendingPathComponent("hang"), timeout: .seconds(30))
        let task = Task(executorPreference: transport.executor) { try await transport.send(request) }
        try await Task.sleep(for: .milliseconds(100))
        task.cancel()
        let error = await networkError { try await task.value }
        #expect(error?.isCancellation == true, "got \(String(describing: error))")
    }

    @Test func tasksStillPreferringTheExecutorRunAfterTheTransportIsGone() async throws {
        var transport: CurlTransport? = CurlTransport()
        let executor = transport!.executor
        transport = nil
        // Give the loop thread time to stop.
        try await Task.sleep(for: .milliseconds(100))
        let value = await withTaskExecutorPreference(executor) {
            try? await Task.sleep(for: .milliseconds(10))
            return 42
        }
        #expect(value == 42)
    }
}
