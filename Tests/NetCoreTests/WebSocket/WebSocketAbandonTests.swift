import NetWebSocketCore
import NetToolbox
import Foundation
import NetCore
import NetTestSupport
import Testing

@testable import NetBase

/// A 101 the call does not keep (refused by a plugin, retried, past the deadline) is abandoned,
/// never closed with a wait for the peer's close frame.
@Suite("WebSocket attempts that are not kept")
struct WebSocketAbandonTests {
    /// A connection that records whether it was closed (waiting) or abandoned (not waiting).
    final class RecordingConnection: InboxBackedWebSocketConnection {
        let inbox = WebSocketInbox(capacity: 1024)
        let calls = Locked<[String]>([])
        func send(_ message: WebSocket.Message) async throws {}
        func ping() async throws {}
        func close(_ code: WebSocket.CloseCode, reason: String) async { calls.withLock { $0.append("close") } }
        func abandon() { calls.withLock { $0.append("abandon") } }
        var closeCode: WebSocket.CloseCode? { nil }
        var closeReason: String? { nil }
    }

    /// Answers every handshake with a 101 on a ``RecordingConnection``.
    struct UpgradingTransport: WebSocketTransport {
        let connections = Locked<[RecordingConnection]>([])
        var capabilities: TransportCapabilities { [] }
        func send(_ request: Request, progress: ProgressHandler?) async throws -> Response {
            Response(statusCode: 500, request: request)
        }
        func openWebSocket(
            _ request: Request, handshake: WebSocketHandshake, configuration: WebSocketConfiguration
        ) async throws -> WebSocketOpening {
            let connection = RecordingConnection()
            connections.withLock { $0.append(connection) }
            let headers: HTTPHeaders = [
                "Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Accept": WebSocketHandshake.accept(for: handshake.key),
            ]
            return .upgraded(Response(statusCode: 101, headers: headers, data: Data(), request: request), subprotocol: nil, connection: connection)
        }
    }

    @Test("A 101 a plugin refuses in process is abandoned at once, not closed with a wait for the peer")
    func refusedUpgradeIsAbandoned() async throws {
        let transport = UpgradingTransport()
        var plugin = RecordingPlugin("gate", Recorder())
        plugin.onProcess = { _, _ in .failure(.stopped(plugin: "gate", reason: "no sockets today")) }
        await #expect(throws: NetworkError.self) {
            _ = try await Provider<TestTarget>(transport: transport, plugins: [plugin])
                .webSocket(TestTarget(name: "chat", baseURL: URL(string: "wss://chat.example.com")!, path: "room"))
        }
        let connection = try #require(transport.connections.withLock { $0.first })
        #expect(connection.calls.withLock { $0 } == ["abandon"])
    }

    @Test("A 101 that a plugin retries is abandoned, and the retry's connection is kept open")
    func retriedUpgradeIsAbandoned() async throws {
        let transport = UpgradingTransport()
        var plugin = RecordingPlugin("retry", Recorder())
        plugin.onSucceed = { _, request in request.attempt < 2 ? .retry(after: .zero) : .proceed }
        var configuration = ProviderConfiguration()
        configuration.maxAttempts = 2
        let socket = try await Provider<TestTarget>(transport: transport, plugins: [plugin], configuration: configuration)
            .webSocket(TestTarget(name: "chat", baseURL: URL(string: "wss://chat.example.com")!, path: "room"))
        withExtendedLifetime(socket) {
            let connections = transport.connections.withLock { $0 }
            #expect(connections.count == 2)
            #expect(connections.first?.calls.withLock { $0 } == ["abandon"])
            #expect(connections.last?.calls.withLock { $0 } == [], "the kept connection is neither closed nor abandoned")
        }
    }
}
