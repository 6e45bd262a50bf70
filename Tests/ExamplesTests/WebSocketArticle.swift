// The code of the article "WebSocket" (Sources/NetCore/NetCore.docc/UsingWebSockets.md):
// ArticleTwinTests requires this file to open with the article's first block and to import
// nothing else.
import Foundation
import NetCore

enum Live: TargetType {
    case prices

    var baseURL: URL { URL(string: "wss://live.example.com")! }
    var path: String { "/prices" }
    var method: HTTPMethod { .get }
    var content: RequestContent { .plain }
}

func followPrices(_ provider: Provider<Live>) async throws {
    var configuration = WebSocketConfiguration()
    configuration.subprotocols = ["prices.v1"]
    let socket = try await provider.webSocket(.prices, configuration: configuration)
    try await socket.send(.text(#"{"subscribe":"EURUSD"}"#))
    for try await message in socket.messages {
        if case .text(let text) = message { print(text) }
    }
    print("closed:", socket.closeCode ?? .abnormalClosure)
}

func echoesOneMessage() async throws -> WebSocket.Message? {
    let transport = WebSocketStubTransport { peer in
        while let message = try await peer.receive() { peer.send(message) }
    }
    let socket = try await Provider<Live>(transport: transport).webSocket(.prices)
    try await socket.send(.text("ping"))
    var messages = socket.messages.makeAsyncIterator()
    let echoed = try await messages.next()
    await socket.close()
    return echoed
}

func openCompressed(_ provider: Provider<Live>) async throws -> WebSocket {
    var configuration = WebSocketConfiguration()
    configuration.compression = true
    let socket = try await provider.webSocket(.prices, configuration: configuration)
    print("agreed:", socket.response.headers["Sec-WebSocket-Extensions"] ?? "no compression")
    return socket
}
