import Foundation
import NetCore
import NetPlugins

/// The echo endpoint of `scripts/ws_echo_server.py`: every message comes back.
struct EchoSocket: TargetType {
    let baseURL: URL
    var path: String { "echo" }
    var method: HTTPMethod { .get }
    var content: RequestContent { .plain }
}

extension Tour {
    /// A WebSocket opened through the same plugins as the requests: the logger writes its open,
    /// its messages (verbose) and its close; the capture keeps the messages in the handshake's
    /// HAR entry.
    func webSocket() async throws {
        step("9. a WebSocket (echo)")
        guard let webSocketURL else {
            print("  skipped: no WebSocket echo server (pass its ws:// URL as the second argument or set NETKIT_WS_URL)")
            return
        }
        let provider = Provider<EchoSocket>(
            plugins: [LoggerPlugin(verbosity: .verbose, output: { print("  log: \($0)") }), capture],
            configuration: ProviderConfiguration(timeout: .seconds(10)))
        let socket = try await provider.webSocket(
            EchoSocket(baseURL: webSocketURL), configuration: WebSocketConfiguration(subprotocols: ["chat"]))
        try check(socket.subprotocol == "chat", "subprotocol \(socket.subprotocol ?? "none"), not chat")
        var replies = socket.messages.makeAsyncIterator()
        for message: WebSocket.Message in [.text("hello"), .binary(Data([1, 2, 3]))] {
            try await socket.send(message)
            let reply = try await replies.next()
            try check(reply == message, "sent \(message), got \(String(describing: reply))")
        }
        try await socket.ping()
        await socket.close()
        try check(try await replies.next() == nil, "messages after the close")
        try check(socket.closeCode == .normalClosure, "closed with \(String(describing: socket.closeCode))")
        let recorded = capture.exchanges().last { $0.statusCode == 101 }?.webSocketMessages.count ?? 0
        try check(recorded == 4, "the capture kept \(recorded) messages, not 4")
        print("  2 messages echoed, a ping answered, closed with 1000; the capture kept all 4 messages")
    }
}
