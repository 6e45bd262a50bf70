import Foundation
import NetCore
import NetCurl
import NetTestSupport
import Testing

/// A peer that takes the upgrade request and never answers: the open ends by the target's timeout,
/// or at once when its task is cancelled, and the loop that ran it keeps serving others.
@Suite("Curl WebSocket opens end by their deadline", .liveServers)
struct WebSocketOpeningDeadlineTests {
    @Test("An upgrade the server never answers fails with timedOut by the target's timeout")
    func silentServerTimesOut() async throws {
        let fault = try SocketServers.fault()
        let started = ContinuousClock.now
        var target = SocketTarget(base: fault, path: "silent-upgrade")
        target.timeout = .seconds(1)
        let outcome: Result<WebSocket, NetworkError>
        do { outcome = .success(try await SocketServers.provider().webSocket(target)) } catch { outcome = .failure(error) }
        let elapsed = ContinuousClock.now - started
        guard case .failure(let error) = outcome else {
            Issue.record("the open succeeded")
            return
        }
        #expect(error.code == .timedOut, "\(error)")
        #expect(elapsed < .seconds(3), "ended after \(elapsed)")
        try await expectEchoStillWorks()
    }

    @Test("Cancelling the task of an open the server never answers ends it with cancelled at once")
    func cancelledOpenEnds() async throws {
        let fault = try SocketServers.fault()
        let provider = SocketServers.provider()
        let open = Task { try await provider.webSocket(SocketTarget(base: fault, path: "silent-upgrade")) }
        try await Task.sleep(for: .milliseconds(300))
        let cancelledAt = ContinuousClock.now
        open.cancel()
        let result = await open.result
        let elapsed = ContinuousClock.now - cancelledAt
        guard case .failure(let error) = result else {
            Issue.record("the open succeeded")
            return
        }
        #expect((error as? NetworkError)?.code == .cancelled, "\(error)")
        #expect(elapsed < .seconds(1), "ended \(elapsed) after the cancel")
        try await expectEchoStillWorks()
    }

    /// Every loop still opens and echoes (the hung open held none of them).
    private func expectEchoStillWorks() async throws {
        let provider = SocketServers.provider()
        for _ in 0..<ProcessInfo.processInfo.activeProcessorCount {
            let socket = try await provider.webSocket(SocketTarget(base: try SocketServers.echo(), path: "echo"))
            var iterator = socket.messages.makeAsyncIterator()
            try await socket.send(.text("still here"))
            #expect(try await iterator.next() == .text("still here"))
            await socket.close()
        }
    }
}
