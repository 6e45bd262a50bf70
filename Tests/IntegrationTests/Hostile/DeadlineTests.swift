import Foundation
import NetCore
import NetPlugins
import Testing
import NetTestSupport

/// The call's timeout holds across retries and against servers that ask for long waits.
@Suite(.liveServers, .serialized)
struct CallDeadlineTests {
    @Test("Retry-After: 3600 with RetryPlugin and a 2 s timeout ends within the deadline with the 503", arguments: TransportKind.allCases)
    func longRetryAfter(kind: TransportKind) async throws {
        _ = try TestServers.require("NETKIT_FAULT_URL")
        let provider = Provider<HostileTarget>(transport: kind.make(), plugins: [RetryPlugin(maxRetries: 5, maxRetryAfter: .seconds(7200))])
        let clock = ContinuousClock()
        let start = clock.now
        let target = HostileTarget(path: "/retry-after/seconds", content: .query(["n": 3600]), timeout: .seconds(2), validation: .successCodes)
        let error = await outcome { try await provider.request(target) }.failure
        #expect(clock.now - start < .milliseconds(2100))
        #expect(error?.statusCode == 503, "\(String(describing: error))")
    }

    @Test("A call ends by its deadline while another transfer keeps the transport's engine busy", arguments: TransportKind.allCases)
    func deadlineWhileEngineBusy(kind: TransportKind) async throws {
        if skipsFloodUnderSanitizer(kind) { return }
        _ = try TestServers.require("NETKIT_FAULT_URL")
        // FoundationNetworking reads a refused endless body on, discarding, on a work queue all its
        // sessions share; a request made meanwhile must still end by its deadline, never later.
        let busy = kind.make()
        _ = await outcome {
            try await Provider<HostileTarget>(transport: busy).request(
                HostileTarget(path: "/endless", content: .query(["seconds": 10]), timeout: .seconds(20), maxResponseBytes: 4 << 20))
        }
        let provider = Provider<HostileTarget>(transport: kind.make(), configuration: .init(maxAttempts: 1))
        for _ in 0..<3 {
            let call = await timed { try await provider.request(HostileTarget(path: "/healthz", timeout: .seconds(1))) }
            #expect(call.time < .milliseconds(1100), "\(kind): the call took \(call.time) (\(call.result))")
            if case .failure(let error) = call.result, !error.isTimedOut { Issue.record("\(kind): \(error)") }
        }
        await awaitStoppedTransfers(of: busy)
    }

    @Test("Under a storm of stalls, resets and slow drips, every request ends by its deadline + 100 ms")
    func stormDeadlines() async throws {
        _ = try TestServers.require("NETKIT_FAULT_URL")
        let provider = Provider<HostileTarget>(transport: TransportKind.curl.make(), configuration: ProviderConfiguration(maxAttempts: 1))
        let paths = ["/hang", "/drip", "/reset-before-headers", "/truncated", "/healthz", "/load"]
        let total = NETKIT_SANITIZED ? 200 : 1000
        let timeout = Duration.seconds(1)
        let overruns = await withTaskGroup(of: Duration.self) { group in
            var durations: [Duration] = []
            var next = 0
            func add() {
                let path = paths[next % paths.count]
                next += 1
                group.addTask {
                    let clock = ContinuousClock()
                    let start = clock.now
                    _ = await outcome {
                        try await provider.request(HostileTarget(path: path, content: .query(["count": 100, "interval_ms": 50]), timeout: timeout))
                    }
                    return clock.now - start
                }
            }
            for _ in 0..<64 { add() }
            while let duration = await group.next() {
                durations.append(duration)
                if next < total { add() }
            }
            return durations.sorted()
        }
        let p50 = overruns[overruns.count / 2], p99 = overruns[overruns.count * 99 / 100], worst = overruns.last!
        print("[deadline storm] \(overruns.count) requests, 1 s timeout: p50 \(p50), p99 \(p99), max \(worst)")
        #expect(overruns.count == total)
        #expect(worst < timeout + .milliseconds(NETKIT_SANITIZED ? 1000 : 100), "slowest request took \(worst)")
    }
}

extension NetworkError {
    /// Whether this is `.timedOut`.
    var isTimedOut: Bool {
        if case .timedOut = self { return true }
        return false
    }
}
