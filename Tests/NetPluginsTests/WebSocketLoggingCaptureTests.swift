import NetWebSocketCore
import Foundation
import NetCore
@testable import NetPlugins
import Testing
import NetTestSupport

/// LoggerPlugin and CapturePlugin on WebSockets, over `WebSocketStubTransport`.
@Suite("WebSocket logging and capture")
struct WebSocketLoggingCaptureTests {
    static let echo = WebSocketStubTransport { peer in
        while let message = try await peer.receive() { peer.send(message) }
    }

    static func chat() -> TestTarget {
        var target = TestTarget()
        target.baseURL = URL(string: "wss://chat.example.com")!
        target.path = "/room"
        target.headers = ["Authorization": "Bearer s3cr3t-token"]
        return target
    }

    /// Sends each message, reads its echo, then closes with 1000.
    static func converse(_ provider: Provider<TestTarget>, _ messages: [WebSocket.Message]) async throws {
        let socket = try await provider.webSocket(chat())
        var iterator = socket.messages.makeAsyncIterator()
        for message in messages {
            try await socket.send(message)
            #expect(try await iterator.next() == message)
        }
        await socket.close(.normalClosure, reason: "done")
    }

    @Test("LoggerPlugin logs the open and the close of a WebSocket, and no message in compact mode")
    func compactLogsOpenAndClose() async throws {
        let lines = Lines()
        let provider = Provider<TestTarget>(transport: Self.echo, plugins: [LoggerPlugin(output: lines.sink)])
        try await Self.converse(provider, [.text("hello"), .binary(Data([1, 2, 3]))])
        let all = lines.all
        #expect(all.count == 4, "\(all)")
        #expect(all[0] == "→ GET https://chat.example.com/room attempt=1")
        #expect(all[1].hasPrefix("← 101 GET https://chat.example.com/room"))
        #expect(all[2] == "⇄ WebSocket open wss://chat.example.com/room attempt=1")
        #expect(all[3].hasPrefix("⇄ WebSocket closed wss://chat.example.com/room code=1000 after "))
        #expect(all[3].hasSuffix(": sent 2 (8 B), received 2 (8 B)"))
    }

    @Test("In verbose mode each message is logged with its direction, kind, size and a redacted preview")
    func verboseLogsRedactedMessages() async throws {
        let lines = Lines()
        let provider = Provider<TestTarget>(transport: Self.echo, plugins: [LoggerPlugin(verbosity: .verbose, output: lines.sink)])
        let secretJSON = #"{"token":"abc123","text":"hi"}"#
        try await Self.converse(provider, [.text(secretJSON), .text("my header was s3cr3t-token"), .binary(Data(count: 2048))])
        let messages = lines.all.filter { $0.hasPrefix("⇢") || $0.hasPrefix("⇠") }
        #expect(messages.count == 6, "\(lines.all)")
        #expect(messages[0] == #"⇢ text 30 B wss://chat.example.com/room {"token":"<redacted>","text":"hi"}"#)
        #expect(messages[1] == #"⇠ text 30 B wss://chat.example.com/room {"token":"<redacted>","text":"hi"}"#)
        #expect(messages[2] == "⇢ text 26 B wss://chat.example.com/room my header was <redacted>")
        #expect(messages[4] == "⇢ binary 2.0 KB wss://chat.example.com/room <binary message, 2.0 KB>")
        #expect(!lines.all.joined().contains("abc123"))
        #expect(!lines.all.joined().contains("s3cr3t-token"))
    }

    @Test("A failed WebSocket is logged as failed with the error")
    func failureIsLogged() async throws {
        struct Broken: Error {}
        let lines = Lines()
        let transport = WebSocketStubTransport { _ in throw NetworkError.connectionLost(reason: "the peer went away") }
        let socket = try await Provider<TestTarget>(transport: transport, plugins: [LoggerPlugin(output: lines.sink)])
            .webSocket(Self.chat())
        await #expect(throws: NetworkError.self) { for try await _ in socket.messages {} }
        let last = try #require(lines.all.last)
        #expect(last.hasPrefix("⇄ WebSocket failed wss://chat.example.com/room code=1006 after "))
        #expect(last.contains("the peer went away"))
    }

    @Test("CapturePlugin records the messages of a connection in its handshake's entry, redacted, in order")
    func captureRecordsMessages() async throws {
        let capture = CapturePlugin()
        let provider = Provider<TestTarget>(transport: Self.echo, plugins: [capture])
        try await Self.converse(provider, [.text(#"{"password":"pw","n":1}"#), .binary(Data([0, 1, 2]))])
        let exchange = try #require(capture.exchanges.first)
        #expect(exchange.statusCode == 101)
        try #require(exchange.webSocketMessages.map(\.direction) == [.sent, .received, .sent, .received])
        #expect(exchange.webSocketMessages[0].message == .text(#"{"password":"<redacted>","n":1}"#))
        #expect(exchange.webSocketMessages[3].message == .binary(Data([0, 1, 2])))
        let dates = exchange.webSocketMessages.map(\.date)
        #expect(dates == dates.sorted())
    }

    @Test("The HAR export carries _webSocketMessages as browsers write them: type, time in seconds, opcode, data")
    func harExportHasWebSocketMessages() async throws {
        let capture = CapturePlugin()
        let provider = Provider<TestTarget>(transport: Self.echo, plugins: [capture])
        let before = Date().timeIntervalSince1970
        try await Self.converse(provider, [.text("hi"), .binary(Data([0xFF, 0x00]))])
        let json = try JSONSerialization.jsonObject(with: try capture.harData()) as? [String: Any]
        let entries = (json?["log"] as? [String: Any])?["entries"] as? [[String: Any]]
        let messages = try #require(entries?.first?["_webSocketMessages"] as? [[String: Any]])
        #expect(messages.map { $0["type"] as? String } == ["send", "receive", "send", "receive"])
        #expect(messages.map { $0["opcode"] as? Int } == [1, 1, 2, 2])
        #expect(messages.map { $0["data"] as? String } == ["hi", "hi", "/wA=", "/wA="])
        let time = try #require(messages.first?["time"] as? Double)
        #expect(time >= before.rounded(.down) && time < before + 3600, "seconds since 1970, fractional")
    }

    @Test("A connection keeps at most the capture's byte limit of messages and counts the rest in the entry's comment")
    func captureIsBounded() async throws {
        let capture = CapturePlugin(maxBytes: 2 * (5 + WebSocketInbox.messageOverhead))
        let provider = Provider<TestTarget>(transport: Self.echo, plugins: [capture])
        try await Self.converse(provider, [.text("12345"), .text("67890")])
        let exchange = try #require(capture.exchanges.first)
        #expect(exchange.webSocketMessages.count == 2)
        let json = String(decoding: try capture.harData(), as: UTF8.self)
        #expect(json.contains("2 WebSocket messages not kept (over the capture's byte limit)"))
    }

    @Test("Every connection's messages share the capture's one byte limit")
    func captureLimitIsShared() async throws {
        let capture = CapturePlugin(maxBytes: 4 * (5 + WebSocketInbox.messageOverhead))
        let provider = Provider<TestTarget>(transport: Self.echo, plugins: [capture])
        for _ in 0..<3 { try await Self.converse(provider, [.text("12345"), .text("67890")]) }
        let kept = capture.exchanges.map(\.webSocketMessages.count)
        #expect(kept == [4, 0, 0], "\(kept)")
    }

    @Test("Empty messages count against the limit too, so a flood of them keeps a bounded number")
    func emptyMessagesAreCharged() async throws {
        let capture = CapturePlugin(maxBytes: 10 * WebSocketInbox.messageOverhead)
        let provider = Provider<TestTarget>(transport: Self.echo, plugins: [capture])
        try await Self.converse(provider, Array(repeating: .binary(Data()), count: 50))
        #expect(capture.exchanges.first?.webSocketMessages.count == 10)
    }

    @Test("A released connection's kept messages give their bytes back once its entry is gone")
    func releasedLogGivesBytesBack() async throws {
        let capture = CapturePlugin(maxBytes: 4 * (5 + WebSocketInbox.messageOverhead))
        let provider = Provider<TestTarget>(transport: Self.echo, plugins: [capture])
        try await Self.converse(provider, [.text("12345")])
        #expect(capture.webSocketBudget.usedBytes == 2 * (5 + WebSocketInbox.messageOverhead))
        capture.clear()
        #expect(capture.webSocketBudget.usedBytes == 0)
    }

    @Test("A token passed as a subprotocol never reaches the log")
    func subprotocolTokenIsNotLogged() async throws {
        let token = "base64url.bearer.authorization.k8s.io.dG9rZW4tczNjcjN0"
        let lines = Lines()
        let transport = WebSocketStubTransport(subprotocol: token) { peer in
            while let message = try await peer.receive() { peer.send(message) }
        }
        let provider = Provider<TestTarget>(transport: transport, plugins: [LoggerPlugin(verbosity: .verbose, output: lines.sink)])
        let socket = try await provider.webSocket(Self.chat(), configuration: WebSocketConfiguration(subprotocols: [token]))
        await socket.close()
        #expect(lines.all.contains { $0.contains("subprotocol=<redacted>") }, "\(lines.all)")
        #expect(!lines.all.joined().contains("dG9rZW4tczNjcjN0"))
    }
}
