import Foundation
import NetCore
import NetCurl
import Testing
import NetTestSupport

/// Interim (1xx) responses a server sends unasked are skipped: the final response is the answer,
/// and a server that never sends one is ended by the deadline.
@Suite(.liveServers, .serialized)
struct InterimResponseTests {
    @Test("Unasked-for 100 Continue and 103 Early Hints heads before the response are skipped", arguments: TransportKind.allCases)
    func skipsInterimHeads(kind: TransportKind) async throws {
        _ = try TestServers.require("NETKIT_FAULT_URL")
        if kind == .urlSession { await awaitFoundationNetworkingIdle() }
        let provider = Provider<HostileTarget>(transport: kind.make())
        let response = try await provider.request(HostileTarget(path: "/interim", content: .query(["count": 5])))
        #expect(response.statusCode == 200)
        #expect(response.string() == #"{"ok":true}"#)
    }

    @Test("An endless run of 100 Continue ends by the deadline", arguments: TransportKind.allCases)
    func endlessInterimEndsByDeadline(kind: TransportKind) async throws {
        _ = try TestServers.require("NETKIT_FAULT_URL")
        if kind == .urlSession { await awaitFoundationNetworkingIdle() }
        let provider = Provider<HostileTarget>(transport: kind.make(), configuration: .init(maxAttempts: 1))
        let outcome = await timed { try await provider.request(HostileTarget(path: "/endless-interim", timeout: .seconds(1))) }
        guard case .timedOut? = outcome.result.failure else {
            Issue.record("\(kind): \(outcome.result)")
            return
        }
        #expect(outcome.time < .seconds(1) + .milliseconds(NETKIT_SANITIZED ? 600 : 100), "took \(outcome.time)")
    }
}
