import Foundation
import NetCore
import NetCurl
import NetPlugins
import NetTestSupport
import Testing

/// LoggerPlugin, CapturePlugin and ReplayTransport on a real WebSocket: the curl transport
/// against the echo server, then the capture played back without it.
@Suite(.liveServers, .serialized)
struct WebSocketPluginsLiveTests {
    @Test("A live echo conversation is logged, captured with its messages, and replays from the capture's HAR")
    func logCaptureReplay() async throws {
        let lines = Lines()
        let capture = CapturePlugin()
        let logger = LoggerPlugin(verbosity: .verbose, output: lines.sink)
        let base = try SocketServers.echo()
        let provider = SocketServers.provider(plugins: [logger, capture])
        let target = SocketTarget(base: base, path: "echo")
        let conversation: [WebSocket.Message] = [.text(#"{"password":"hunter2","n":1}"#), .binary(Data([0, 1, 2, 255]))]

        let socket = try await provider.webSocket(target)
        var iterator = socket.messages.makeAsyncIterator()
        for message in conversation {
            try await socket.send(message)
            #expect(try await iterator.next() == message)
        }
        await socket.close()
        #expect(try await iterator.next() == nil)

        let all = lines.all
        let host = base.host ?? ""
        #expect(all.contains { $0.hasPrefix("⇄ WebSocket open ws://\(host)") }, "\(all)")
        let messageLines = all.filter { $0.hasPrefix("⇢") || $0.hasPrefix("⇠") }
        #expect(messageLines.count == 4, "\(all)")
        #expect(messageLines.first?.hasSuffix(#"{"password":"<redacted>","n":1}"#) == true)
        #expect(!all.joined().contains("hunter2"))
        #expect(all.last?.hasPrefix("⇄ WebSocket closed ws://\(host)") == true && all.last?.contains("code=1000") == true, "\(all)")

        let exchange = try #require(capture.exchanges.first { $0.statusCode == 101 })
        try #require(exchange.webSocketMessages.map(\.direction) == [.sent, .received, .sent, .received])
        #expect(exchange.webSocketMessages[3].message == .binary(Data([0, 1, 2, 255])))

        // Played back with no server: the capture redacted the password, which matches any value.
        let replay = try ReplayTransport(harData: try capture.harData())
        let replayed = try await Provider<SocketTarget>(transport: replay).webSocket(target)
        var played = replayed.messages.makeAsyncIterator()
        try await replayed.send(.text(#"{"password":"another","n":1}"#))
        #expect(try await played.next() == .text(#"{"password":"<redacted>","n":1}"#))
        try await replayed.send(conversation[1])
        #expect(try await played.next() == conversation[1])
        #expect(try await played.next() == nil)
        #expect(replayed.closeCode == .normalClosure)
    }
}
