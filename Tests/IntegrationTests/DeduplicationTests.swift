import Foundation
import NetCore
import Testing
import NetTestSupport

/// `DeduplicatingTransport` against a counting endpoint, over both transports.
@Suite(.liveServers, .serialized)
struct DeduplicationTests {
    func slow(_ key: String, method: HTTPMethod = .get) -> HostileTarget {
        HostileTarget(path: "/counter/slow", method: method, content: .query(["key": key, "delay_ms": 400]), validation: .successCodes)
    }

    @Test("Ten identical GETs in flight together cause one request; every caller gets the response", arguments: TransportKind.allCases)
    func identicalGETsShareOneTransfer(kind: TransportKind) async throws {
        _ = try TestServers.require("NETKIT_FAULT_URL")
        let provider = Provider<HostileTarget>(transport: DeduplicatingTransport(kind.make()))
        let key = UUID().uuidString
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<10 { group.addTask { try await provider.request(slow(key)).statusCode } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(statuses == Array(repeating: 200, count: 10))
        #expect(try await faultCounter(key) == 1)
        // Different credentials are different requests.
        let other = UUID().uuidString
        var withToken = slow(other)
        withToken.headers = ["Authorization": "Bearer b"]
        async let first = provider.request(slow(other))
        async let second = provider.request(withToken)
        _ = try await (first, second)
        #expect(try await faultCounter(other) == 2)
    }

    @Test("Non-idempotent requests are never shared")
    func postsAreNotShared() async throws {
        _ = try TestServers.require("NETKIT_FAULT_URL")
        let provider = Provider<HostileTarget>(transport: DeduplicatingTransport(TransportKind.curl.make()))
        let key = UUID().uuidString
        async let first = provider.request(slow(key, method: .post))
        async let second = provider.request(slow(key, method: .post))
        _ = try await (first, second)
        #expect(try await faultCounter(key) == 2)
    }

    @Test("Cancelling one caller leaves the others their response; cancelling all cancels the transfer")
    func cancellation() async throws {
        _ = try TestServers.require("NETKIT_FAULT_URL")
        let provider = Provider<HostileTarget>(transport: DeduplicatingTransport(TransportKind.curl.make()))
        let key = UUID().uuidString
        let cancelled = Task { try await provider.request(slow(key)) }
        let kept = Task { try await provider.request(slow(key)) }
        try await Task.sleep(for: .milliseconds(100))
        cancelled.cancel()
        let cancelledError = await networkError(of: cancelled)
        #expect(cancelledError?.isCancellation == true)
        #expect(try await kept.value.statusCode == 200)
        #expect(try await faultCounter(key) == 1)

        let allKey = UUID().uuidString
        let clock = ContinuousClock()
        let start = clock.now
        let tasks = (0..<3).map { _ in Task { try await provider.request(slow(allKey)) } }
        try await Task.sleep(for: .milliseconds(100))
        for task in tasks { task.cancel() }
        for task in tasks { #expect(await networkError(of: task)?.isCancellation == true) }
        #expect(clock.now - start < .milliseconds(400), "every caller ended before the server answered")
    }
}
