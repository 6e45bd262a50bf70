// The plugins block of the article "WebSocket" (Sources/NetCore/NetCore.docc/UsingWebSockets.md),
// which needs NetPlugins; `Live` is in WebSocketArticle.swift.
import Foundation
import NetCore
import NetPlugins

func replaysACapturedConversation() async throws -> [WebSocket.Message] {
    let server = WebSocketStubTransport { peer in
        while let message = try await peer.receive() { peer.send(message) }
    }
    let capture = CapturePlugin()
    let live = Provider<Live>(transport: server, plugins: [capture])
    let socket = try await live.webSocket(.prices)
    try await socket.send(.text(#"{"subscribe":"EURUSD"}"#))
    var echoes = socket.messages.makeAsyncIterator()
    _ = try await echoes.next()
    await socket.close()

    let offline = Provider<Live>(transport: try ReplayTransport(harData: try capture.harData()))
    let replayed = try await offline.webSocket(.prices)
    try await replayed.send(.text(#"{"subscribe":"EURUSD"}"#))
    var messages: [WebSocket.Message] = []
    for try await message in replayed.messages { messages.append(message) }
    return messages
}
