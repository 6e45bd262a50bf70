import NetToolbox
import Foundation
import NetCore
import NetTestSupport
import Testing

/// `Provider.webSocket` on `WebSocketStubTransport`: the handshake through every hook, retries,
/// refusals, and a scripted conversation.
@Suite("WebSocket through the pipeline")
struct WebSocketPipelineTests {
    static let echo = WebSocketStubTransport { peer in
        while let message = try await peer.receive() { peer.send(message) }
    }

    func target(_ url: String = "wss://chat.example.com") -> TestTarget {
        TestTarget(name: "chat", baseURL: URL(string: url)!, path: "room")
    }

    @Test("A scripted echo conversation sends, receives and closes with the client's code")
    func echoConversation() async throws {
        let provider = Provider<TestTarget>(transport: Self.echo)
        let socket = try await provider.webSocket(target())
        #expect(socket.response.statusCode == 101)
        try await socket.send(.text("hello"))
        try await socket.send(.binary(Data([1, 2])))
        var iterator = socket.messages.makeAsyncIterator()
        #expect(try await iterator.next() == .text("hello"))
        #expect(try await iterator.next() == .binary(Data([1, 2])))
        try await socket.ping()
        await socket.close(.goingAway, reason: "bye")
        #expect(try await iterator.next() == nil)
        #expect(socket.closeCode == .goingAway)
        await #expect(throws: NetworkError.self) { try await socket.send(.text("late")) }
    }

    @Test("The handshake runs prepare and willSend: a plugin's header reaches the peer, over an http URL")
    func hooksRunOnHandshake() async throws {
        let recorder = Recorder()
        var plugin = RecordingPlugin("auth", recorder)
        plugin.onPrepare = { request in
            request.headers["Authorization"] = "Bearer token"
            return .proceed
        }
        let seen = Locked<Request?>(nil)
        let transport = WebSocketStubTransport { peer in seen.withLock { $0 = peer.request } }
        let socket = try await Provider<TestTarget>(transport: transport, plugins: [plugin]).webSocket(target())
        for try await _ in socket.messages {}
        let request = try #require(seen.withLock { $0 })
        #expect(request.headers["Authorization"] == "Bearer token")
        #expect(request.headers["Sec-WebSocket-Version"] == "13")
        #expect(request.url.scheme == "https", "wss is sent as https, so TLS policies and cookies apply")
        #expect(recorder.all == ["auth.prepare", "auth.willSend", "auth.succeed", "auth.process"])
        #expect(socket.closeCode == WebSocket.CloseCode.normalClosure)
    }

    @Test("A 401 answer runs failure, which may refresh and retry; the second handshake upgrades")
    func unauthorizedIsRetried() async throws {
        let attempts = Locked(0)
        let transport = WebSocketStubTransport(
            answer: { request in
                attempts.withLock { $0 += 1 }
                return request.headers["Authorization"] == "Bearer fresh" ? nil : Response(statusCode: 401, request: request)
            }, conversation: { _ in })
        let token = Locked("stale")
        var plugin = RecordingPlugin("refresh", Recorder())
        plugin.onPrepare = { request in
            request.headers["Authorization"] = "Bearer " + token.withLock { $0 }
            return .proceed
        }
        plugin.onFailure = { error, _ in
            guard error.statusCode == 401 else { return .proceed }
            token.withLock { $0 = "fresh" }
            return .retry(after: .zero)
        }
        var configuration = ProviderConfiguration()
        configuration.maxAttempts = 2
        let provider = Provider<TestTarget>(transport: transport, plugins: [plugin], configuration: configuration)
        let socket = try await provider.webSocket(target())
        #expect(socket.response.statusCode == 101)
        #expect(attempts.withLock { $0 } == 2)
    }

    @Test("A 200 that validation accepts is still no WebSocket")
    func okIsNotAnUpgrade() async {
        let transport = WebSocketStubTransport(answer: { Response(statusCode: 200, request: $0) }, conversation: { _ in })
        await #expect {
            _ = try await Provider<TestTarget>(transport: transport).webSocket(target())
        } throws: { error in
            guard case .invalidResponse(let reason, _) = error as? NetworkError else { return false }
            return reason.contains("200, not 101")
        }
    }

    @Test("A chosen subprotocol is reported; one that was not offered fails the handshake")
    func subprotocols() async throws {
        let transport = WebSocketStubTransport(subprotocol: "v2") { _ in }
        let provider = Provider<TestTarget>(transport: transport)
        let socket = try await provider.webSocket(target(), configuration: WebSocketConfiguration(subprotocols: ["v1", "v2"]))
        #expect(socket.subprotocol == "v2")
        await #expect(throws: NetworkError.self) {
            _ = try await provider.webSocket(target(), configuration: WebSocketConfiguration(subprotocols: ["v1"]))
        }
    }

    @Test("Compression on offers permessage-deflate in the handshake; off offers nothing")
    func compressionOffered() async throws {
        let offers = Locked<[String?]>([])
        let transport = WebSocketStubTransport(
            answer: { request in
                offers.withLock { $0.append(request.headers["Sec-WebSocket-Extensions"]) }; return nil
            }, conversation: { _ in })
        let provider = Provider<TestTarget>(transport: transport)
        try await provider.webSocket(target(), configuration: WebSocketConfiguration(compression: true)).close()
        try await provider.webSocket(target()).close()
        #expect(offers.withLock { $0 } == ["permessage-deflate; client_max_window_bits", nil])
    }

    @Test("A transport without WebSockets answers with an error naming it, never a crash")
    func unsupportedTransport() async {
        await #expect {
            _ = try await Provider<TestTarget>(transport: StubTransport()).webSocket(target())
        } throws: { error in
            guard case .transport(let reason, _) = error as? NetworkError else { return false }
            return reason.contains("StubTransport cannot open WebSockets")
        }
    }

    @Test("Through DeduplicatingTransport a WebSocket opens on the wrapped transport, one connection per caller")
    func throughDeduplicatingTransport() async throws {
        let opened = Locked(0)
        let counting = WebSocketStubTransport { peer in
            opened.withLock { $0 += 1 }
            while let message = try await peer.receive() { peer.send(message) }
        }
        let provider = Provider<TestTarget>(transport: DeduplicatingTransport(counting))
        let first = try await provider.webSocket(target())
        let second = try await provider.webSocket(target())
        try await first.send(.text("one"))
        try await second.send(.text("two"))
        var firstMessages = first.messages.makeAsyncIterator()
        var secondMessages = second.messages.makeAsyncIterator()
        #expect(try await firstMessages.next() == .text("one"))
        #expect(try await secondMessages.next() == .text("two"))
        await first.close()
        await second.close()
        #expect(opened.withLock { $0 } == 2, "identical handshakes are never shared")
    }

    @Test("DeduplicatingTransport over a transport without WebSockets answers with that transport's error")
    func deduplicatingOverUnsupported() async {
        struct PlainTransport: Transport {
            var capabilities: TransportCapabilities { [] }
            func send(_ request: Request, progress: ProgressHandler?) async throws -> Response {
                Response(statusCode: 200, request: request)
            }
        }
        await #expect {
            _ = try await Provider<TestTarget>(transport: DeduplicatingTransport(PlainTransport())).webSocket(target())
        } throws: { error in
            guard case .transport(let reason, _) = error as? NetworkError else { return false }
            return reason.hasPrefix("PlainTransport cannot open WebSockets") && reason.hasSuffix("Nothing was sent")
        }
    }

    @Test("The peer's close ends the messages with its code and reason; a failing script makes them throw")
    func peerCloseAndFailure() async throws {
        let closing = WebSocketStubTransport { peer in
            peer.send(.text("last"))
            peer.close(.policyViolation, reason: "rules")
        }
        let socket = try await Provider<TestTarget>(transport: closing).webSocket(target())
        var received: [WebSocket.Message] = []
        for try await message in socket.messages { received.append(message) }
        #expect(received == [.text("last")])
        #expect(socket.closeCode == .policyViolation && socket.closeReason == "rules")

        let failing = WebSocketStubTransport { _ in throw NetworkError.connectionLost(reason: "scripted") }
        let broken = try await Provider<TestTarget>(transport: failing).webSocket(target())
        await #expect(throws: NetworkError.self) { for try await _ in broken.messages {} }
    }
}
