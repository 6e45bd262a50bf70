import Foundation
import NetCore
import NetCurl
import NetTestSupport
import Testing

/// Hostile WebSocket peers (`scripts/ws_fault_server.py`) and the outcome RFC 6455 requires of
/// the client for each: the handshake refused, or the connection failed with the right close
/// code, nothing buffered past the limit, no hang past the configured timeouts.
@Suite(.liveServers, .serialized)
struct WebSocketHostileTests {
    func open(_ path: String, configuration: WebSocketConfiguration = .init()) async throws -> WebSocket {
        try await SocketServers.openFault(path, configuration: configuration)
    }

    func handshakeFailure(_ path: String, configuration: WebSocketConfiguration = .init()) async -> String? {
        await SocketServers.handshakeFailure(path, configuration: configuration)
    }

    @Test("A 200 instead of 101 fails the handshake")
    func okInsteadOfUpgrade() async {
        #expect(await handshakeFailure("status-200")?.contains("200, not 101") == true)
    }

    @Test("A wrong Sec-WebSocket-Accept fails the handshake")
    func wrongAccept() async {
        #expect(await handshakeFailure("wrong-accept")?.contains("Sec-WebSocket-Accept") == true)
    }

    @Test("A subprotocol or an extension that was not offered fails the handshake")
    func unoffered() async {
        #expect(await handshakeFailure("unoffered-subprotocol", configuration: .init(subprotocols: ["chat"]))?.contains("'mqtt'") == true)
        #expect(await handshakeFailure("unoffered-extension")?.contains("permessage-deflate") == true)
    }

    @Test(
        "Protocol violations fail the connection with an error naming the close code sent",
        arguments: [
            ("masked-frame", "1002"), ("reserved-bits", "1002"), ("reserved-opcode", "1002"), ("bad-utf8", "1007"), ("invalid-close-code", "1002"),
        ])
    func violations(path: String, code: String) async throws {
        let socket = try await open(path)
        let (messages, error) = await socket.collect()
        #expect(messages.isEmpty)
        guard case .invalidResponse(let reason, _)? = error else {
            Issue.record("expected .invalidResponse, got \(String(describing: error))")
            return
        }
        #expect(reason.contains("closed with \(code)"))
        #expect(socket.closeCode == .abnormalClosure)
    }

    @Test("A frame header announcing 2^63-1 bytes fails with messageTooBig before any payload is kept")
    func hugeLength() async throws {
        let socket = try await open("huge-length")
        let (_, error) = await socket.collect()
        guard case .responseTooLarge(let limit)? = error else {
            Issue.record("expected .responseTooLarge, got \(String(describing: error))")
            return
        }
        #expect(limit == 16 * 1024 * 1024)
    }

    @Test("A peer that never answers the close is dropped after the close timeout, as 1006")
    func neverCloses() async throws {
        let socket = try await open("never-closes", configuration: WebSocketConfiguration(closeTimeout: .milliseconds(300)))
        await socket.close()
        #expect(socket.closeCode == .abnormalClosure)
        let (_, error) = await socket.collect()
        #expect(error == nil, "our own close ends the messages normally")
    }

    @Test("A ping the peer never answers ends with cancelled when its task is cancelled", .timeLimit(.minutes(1)))
    func unansweredPingIsCancellable() async throws {
        let socket = try await open("never-closes", configuration: WebSocketConfiguration(closeTimeout: .milliseconds(300)))
        try await socket.send(.text("the connection is open"))
        let ping = Task { try await socket.ping() }
        ping.cancel()
        await #expect {
            try await ping.value
        } throws: { error in
            if case .cancelled = error as? NetworkError { return true }
            return false
        }
        await socket.close()
    }

    @Test("A ping the peer never answers fails once the connection closes", .timeLimit(.minutes(1)))
    func unansweredPingFailsOnClose() async throws {
        let socket = try await open("never-closes", configuration: WebSocketConfiguration(closeTimeout: .milliseconds(300)))
        let ping = Task { try await socket.ping() }
        await socket.close()
        await #expect(throws: NetworkError.self) { try await ping.value }
    }

    @Test("A pong that echoes another payload does not answer a ping; the close that follows fails it")
    func stalePong() async throws {
        let socket = try await open("stale-pong")
        await #expect(throws: NetworkError.self) { try await socket.ping() }
        #expect(socket.closeCode == .normalClosure)
    }

    @Test("A ping flood is answered without delivering anything but the message after it")
    func pingFlood() async throws {
        let socket = try await open("ping-flood")
        var iterator = socket.messages.makeAsyncIterator()
        #expect(try await iterator.next() == .text("done"))
        await socket.close(.normalClosure)
    }

    @Test("A message arriving one byte every 200 ms is assembled, then the peer's close is honoured")
    func slowBytes() async throws {
        let socket = try await open("slow-bytes")
        let (messages, error) = await socket.collect()
        #expect(messages == [.text("hello")])
        #expect(error == nil)
        #expect(socket.closeCode == .normalClosure)
    }

    @Test("With a ping interval, pings go out on their own while the connection is idle")
    func automaticPings() async throws {
        let socket = try await open("count-pings", configuration: WebSocketConfiguration(pingInterval: .milliseconds(20)))
        var iterator = socket.messages.makeAsyncIterator()
        #expect(try await iterator.next() == .text("3 pings"))
        await socket.close()
    }
}
