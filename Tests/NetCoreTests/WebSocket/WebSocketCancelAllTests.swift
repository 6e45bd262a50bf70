import Foundation
import NetCore
import NetTestSupport
import Testing

/// `Provider.cancelAll()` reaches a WebSocket handshake as it reaches any other call.
@Suite("WebSocket handshakes and cancelAll()")
struct WebSocketCancelAllTests {
    /// Announces its `prepare`, then waits with a plain `Task.sleep`.
    struct SlowPrepare: Plugin {
        let started: AsyncStream<Void>.Continuation
        func prepare(_ request: inout Request) async throws -> PrepareAction {
            started.yield()
            try await Task.sleep(for: .seconds(60))
            return .proceed
        }
    }

    @Test("cancelAll() ends a handshake in flight with cancelled, and the next one opens")
    func cancelAllEndsAHandshakeInFlight() async throws {
        let echo = WebSocketStubTransport { peer in
            while let message = try await peer.receive() { peer.send(message) }
        }
        let target = TestTarget(name: "chat", baseURL: URL(string: "wss://chat.example.com")!, path: "room")
        let (started, announce) = AsyncStream<Void>.makeStream()
        let slow = Provider<TestTarget>(transport: echo, plugins: [SlowPrepare(started: announce)])
        let opening = Task { try await slow.webSocket(target) }
        var iterator = started.makeAsyncIterator()
        await iterator.next()
        slow.cancelAll()
        do {
            _ = try await opening.value
            Issue.record("the handshake opened after cancelAll()")
        } catch {
            #expect((error as? NetworkError)?.code == .cancelled)
        }
        let socket = try await Provider<TestTarget>(transport: echo).webSocket(target)
        #expect(socket.response.statusCode == 101)
        await socket.close()
    }
}
