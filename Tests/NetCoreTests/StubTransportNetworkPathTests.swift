import NetToolbox
import Foundation
import NetCore
import NetTestSupport
import Testing

/// `StubTransport`'s per-target closure: asked once per request, and its `nil` (the network)
/// holds for streams and WebSockets too.
@Suite("StubTransport's per-target choice")
struct StubTransportNetworkPathTests {
    static let echo = WebSocketStubTransport { peer in
        while let message = try await peer.receive() { peer.send(message) }
    }

    static let target = TestTarget(name: "feed", sampleResponse: .json(#"{"stub": true}"#))

    @Test("A streamed call asks the per-target closure once")
    func streamAsksTheClosureOnce() async throws {
        let calls = Locked(0)
        let transport = StubTransport(network: StubTransport(behavior: .custom { Response(statusCode: 500, request: $0) })) { _ in
            // A closure with state: only its first answer stubs; a second call would send to the network.
            calls.withLock { count in
                count += 1
                return count == 1 ? .immediate : nil
            }
        }
        var received = Data()
        for try await chunk in Provider<TestTarget>(transport: transport).stream(Self.target) { received.append(chunk) }
        #expect(calls.withLock { $0 } == 1)
        #expect(received == Data(#"{"stub": true}"#.utf8))
    }

    @Test("A WebSocket opens through the network transport when the closure answers nil")
    func webSocketOpensThroughTheNetwork() async throws {
        let transport = StubTransport(network: Self.echo) { _ in nil }
        let socket = try await Provider<TestTarget>(transport: transport).webSocket(TestTarget(name: "chat", baseURL: URL(string: "wss://chat.example.com")!))
        #expect(socket.response.statusCode == 101)
        try await socket.send(.text("hello"))
        var iterator = socket.messages.makeAsyncIterator()
        #expect(try await iterator.next() == .text("hello"))
        await socket.close(.normalClosure, reason: "done")
    }

    @Test("A stubbed WebSocket target fails with a clear capability error, nothing sent")
    func stubbedWebSocketTargetFailsClearly() async {
        let transport = StubTransport(network: Self.echo) { _ in .immediate }
        do {
            _ = try await Provider<TestTarget>(transport: transport).webSocket(TestTarget(name: "chat", baseURL: URL(string: "wss://chat.example.com")!))
            Issue.record("a stub behaviour opened a WebSocket")
        } catch {
            #expect(String(describing: error).contains("StubTransport cannot open WebSockets for a stubbed target (TestTarget.chat)"), "\(error)")
        }
    }

    @Test("A WebSocket through StubTransport over a transport without WebSockets names that transport")
    func networkWithoutWebSocketsIsNamed() async {
        let transport = StubTransport(network: PlainTransport()) { _ in nil }
        do {
            _ = try await Provider<TestTarget>(transport: transport).webSocket(TestTarget(name: "chat", baseURL: URL(string: "wss://chat.example.com")!))
            Issue.record("a WebSocket opened without a transport that can open one")
        } catch {
            #expect(String(describing: error).contains("PlainTransport cannot open WebSockets"), "\(error)")
        }
    }
}

/// A user's transport without WebSockets.
private struct PlainTransport: Transport {
    var capabilities: TransportCapabilities { [] }
    func send(_ request: Request, progress: ProgressHandler?) async throws -> Response {
        Response(statusCode: 204, request: request)
    }
}
