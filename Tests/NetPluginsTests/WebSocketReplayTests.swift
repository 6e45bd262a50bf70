import Foundation
import NetCore
import NetPlugins
import Testing
import NetTestSupport

/// ReplayTransport playing WebSocket conversations back from `_webSocketMessages`.
@Suite("ReplayTransport WebSockets")
struct WebSocketReplayTests {
    /// A browser-style HAR: the handshake recorded with a wss URL, Chrome's message form.
    static func har(messages: [[String: Any]], status: Int = 101, protocolHeader: String? = nil) throws -> Data {
        var headers: [[String: String]] = [
            ["name": "Upgrade", "value": "websocket"], ["name": "Connection", "value": "Upgrade"],
            ["name": "Sec-WebSocket-Accept", "value": "recorded-for-another-key="],
            ["name": "Sec-WebSocket-Extensions", "value": "permessage-deflate"],
        ]
        if let protocolHeader { headers.append(["name": "Sec-WebSocket-Protocol", "value": protocolHeader]) }
        let entry: [String: Any] = [
            "request": ["method": "GET", "url": "wss://chat.example.com/room"],
            "response": ["status": status, "headers": headers],
            "_webSocketMessages": messages,
        ]
        return try JSONSerialization.data(withJSONObject: ["log": ["version": "1.2", "entries": [entry]]])
    }

    static func message(_ type: String, _ data: String, opcode: Int = 1) -> [String: Any] {
        ["type": type, "time": 1_700_000_000.25, "opcode": opcode, "data": data]
    }

    static func chat(_ url: String = "wss://chat.example.com") -> TestTarget {
        var target = TestTarget()
        target.baseURL = URL(string: url)!
        target.path = "/room"
        return target
    }

    @Test("A recorded conversation plays back: receives before the first send at once, the rest after each send, then 1000")
    func playsBack() async throws {
        let replay = try ReplayTransport(
            harData: try Self.har(messages: [
                Self.message("receive", "welcome"),
                Self.message("send", #"{"subscribe":"prices"}"#),
                Self.message("receive", "AQID", opcode: 2),
                Self.message("receive", "tick"),
            ]))
        let socket = try await Provider<TestTarget>(transport: replay).webSocket(Self.chat())
        #expect(socket.response.statusCode == 101)
        var iterator = socket.messages.makeAsyncIterator()
        #expect(try await iterator.next() == .text("welcome"))
        try await socket.send(.text(#"{ "subscribe" : "prices" }"#))
        #expect(try await iterator.next() == .binary(Data([1, 2, 3])))
        #expect(try await iterator.next() == .text("tick"))
        #expect(try await iterator.next() == nil)
        #expect(socket.closeCode == .normalClosure)
        #expect(replay.unusedExchanges.isEmpty)
    }

    @Test("A send that differs from the recording's fails the connection, naming the entry and the position")
    func mismatchedSendFails() async throws {
        let replay = try ReplayTransport(
            harData: try Self.har(messages: [Self.message("send", "hello"), Self.message("receive", "hi")]), name: "chat.har")
        let socket = try await Provider<TestTarget>(transport: replay).webSocket(Self.chat())
        try await socket.send(.text("goodbye"))
        let error = await #expect(throws: NetworkError.self) { for try await _ in socket.messages {} }
        #expect(error?.code == .invalidResponse)
        #expect(error?.description.contains("message 1 (text, 7 bytes) does not match send 1 of entry 0 of chat.har") == true)
    }

    @Test("A recorded <redacted> value in a sent JSON message matches any value")
    func redactedSendMatches() async throws {
        let replay = try ReplayTransport(
            harData: try Self.har(messages: [Self.message("send", #"{"token":"<redacted>"}"#), Self.message("receive", "ok")]))
        let socket = try await Provider<TestTarget>(transport: replay).webSocket(Self.chat())
        try await socket.send(.text(#"{"token":"live-secret"}"#))
        var iterator = socket.messages.makeAsyncIterator()
        #expect(try await iterator.next() == .text("ok"))
    }

    @Test("A handshake the recording does not hold fails with the closest recorded one")
    func missFails() async throws {
        let replay = try ReplayTransport(harData: try Self.har(messages: []))
        let error = await #expect(throws: NetworkError.self) {
            _ = try await Provider<TestTarget>(transport: replay).webSocket(Self.chat("wss://other.example.com"))
        }
        #expect(error?.description.contains("no recorded response for GET https://other.example.com/room") == true)
    }

    @Test("A recorded 401 answers the handshake, which fails like a live one")
    func recordedRefusal() async throws {
        let replay = try ReplayTransport(harData: try Self.har(messages: [], status: 401))
        let error = await #expect(throws: NetworkError.self) {
            _ = try await Provider<TestTarget>(transport: replay).webSocket(Self.chat())
        }
        #expect(error?.response?.statusCode == 401)
    }

    @Test("A recorded subprotocol the client did not offer fails the handshake")
    func subprotocolMustBeOffered() async throws {
        let replay = try ReplayTransport(harData: try Self.har(messages: [], protocolHeader: "v2"))
        let error = await #expect(throws: NetworkError.self) {
            _ = try await Provider<TestTarget>(transport: replay).webSocket(Self.chat(), configuration: .init(subprotocols: ["v1"]))
        }
        #expect(error?.description.contains("'v2', which was not offered") == true)
        let socket = try await Provider<TestTarget>(transport: replay).webSocket(Self.chat(), configuration: .init(subprotocols: ["v2"]))
        #expect(socket.subprotocol == "v2")
    }

    @Test("A CapturePlugin recording replays: the capture's HAR answers the same conversation")
    func captureThenReplay() async throws {
        let capture = CapturePlugin()
        let echo = WebSocketStubTransport { peer in
            while let message = try await peer.receive() { peer.send(message) }
        }
        let live = try await Provider<TestTarget>(transport: echo, plugins: [capture]).webSocket(Self.chat())
        var liveMessages = live.messages.makeAsyncIterator()
        try await live.send(.text("one"))
        _ = try await liveMessages.next()
        try await live.send(.binary(Data([9])))
        _ = try await liveMessages.next()
        await live.close()

        let replay = try ReplayTransport(harData: try capture.harData())
        let socket = try await Provider<TestTarget>(transport: replay).webSocket(Self.chat())
        var iterator = socket.messages.makeAsyncIterator()
        try await socket.send(.text("one"))
        #expect(try await iterator.next() == .text("one"))
        try await socket.send(.binary(Data([9])))
        #expect(try await iterator.next() == .binary(Data([9])))
        #expect(try await iterator.next() == nil)
    }

    @Test("Binary data that is not base64 fails loading, naming the field")
    func malformedBinary() throws {
        let error = #expect(throws: NetworkError.self) {
            _ = try ReplayTransport(harData: try Self.har(messages: [Self.message("receive", "%%%", opcode: 2)]))
        }
        #expect(error?.description.contains("log.entries.0._webSocketMessages.0.data") == true)
    }

    static let tokenProtocol = "base64url.bearer.authorization.k8s.io.dG9rZW4tczNjcjN0"

    @Test("A capture with secret values replaced in text and binary messages, and a token subprotocol, replays")
    func redactedCaptureReplays() async throws {
        let capture = CapturePlugin()
        let echo = WebSocketStubTransport(subprotocol: Self.tokenProtocol) { peer in
            while let message = try await peer.receive() { peer.send(message) }
        }
        var target = Self.chat()
        target.headers = ["Authorization": "Bearer s3cr3t-token"]
        let configuration = WebSocketConfiguration(subprotocols: [Self.tokenProtocol, "v4.channel.k8s.io"])
        let conversation: [WebSocket.Message] = [.text("token s3cr3t-token here"), .binary(Data("xx s3cr3t-token yy".utf8))]
        let live = try await Provider<TestTarget>(transport: echo, plugins: [capture]).webSocket(target, configuration: configuration)
        var liveMessages = live.messages.makeAsyncIterator()
        for message in conversation {
            try await live.send(message)
            _ = try await liveMessages.next()
        }
        await live.close()
        let har = try capture.harData()
        #expect(!String(decoding: har, as: UTF8.self).contains("s3cr3t"))
        #expect(!String(decoding: har, as: UTF8.self).contains("dG9rZW4tczNjcjN0"))

        let replay = try ReplayTransport(harData: har)
        let socket = try await Provider<TestTarget>(transport: replay).webSocket(target, configuration: configuration)
        #expect(socket.subprotocol == Self.tokenProtocol)
        var iterator = socket.messages.makeAsyncIterator()
        try await socket.send(conversation[0])
        #expect(try await iterator.next() == .text("token <redacted> here"))
        try await socket.send(conversation[1])
        #expect(try await iterator.next() == .binary(Data("xx <redacted> yy".utf8)))
        #expect(try await iterator.next() == nil)
    }

    @Test("A recorded <redacted> span stands for any run, but the text around it must match")
    func redactedSpanStillChecksTheRest() async throws {
        let har = try Self.har(messages: [Self.message("send", "token <redacted> here")])
        let replay = try ReplayTransport(harData: har)
        let socket = try await Provider<TestTarget>(transport: replay).webSocket(Self.chat())
        try await socket.send(.text("token abc there"))
        await #expect(throws: NetworkError.self) { for try await _ in socket.messages {} }
    }
}
