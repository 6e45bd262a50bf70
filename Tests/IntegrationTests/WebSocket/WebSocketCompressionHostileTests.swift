import Foundation
import NetCore
import NetCurl
import NetTestSupport
import Testing

/// Hostile permessage-deflate peers (`scripts/ws_fault_deflate.py`, served by the fault server):
/// the handshake refused, or the connection failed with the close code RFC 6455 and 7692 require.
@Suite(.liveServers, .serialized)
struct WebSocketCompressionHostileTests {
    static let compressed = WebSocketConfiguration(compression: true)

    func open(_ path: String, query: [String: String] = [:], configuration: WebSocketConfiguration = compressed) async throws -> WebSocket {
        try await SocketServers.openFault(path, query: query, configuration: configuration)
    }

    /// The error the messages of a connection to `path` end with.
    func failure(_ path: String, query: [String: String] = [:], configuration: WebSocketConfiguration = compressed) async throws -> NetworkError? {
        let socket = try await open(path, query: query, configuration: configuration)
        let (messages, error) = await socket.collect()
        #expect(messages.isEmpty)
        #expect(socket.closeCode == .abnormalClosure)
        return error
    }

    func handshakeFailure(_ path: String, configuration: WebSocketConfiguration = compressed) async -> String? {
        await SocketServers.handshakeFailure(path, configuration: configuration)
    }

    @Test("A deflate bomb of 1 MiB that inflates to 1 GiB fails with messageTooBig at the 16 MiB limit")
    func gibibyteBomb() async throws {
        let error = try await failure("deflate-bomb", query: ["mib": "1024"])
        guard case .responseTooLarge(let limit)? = error else {
            Issue.record("expected .responseTooLarge, got \(String(describing: error))")
            return
        }
        #expect(limit == 16 * 1024 * 1024)
    }

    @Test("A deflate bomb fails at a smaller configured limit too")
    func bombPastConfiguredLimit() async throws {
        let error = try await failure(
            "deflate-bomb", query: ["mib": "64"], configuration: WebSocketConfiguration(maximumMessageSize: 1 << 20, compression: true))
        guard case .responseTooLarge(let limit)? = error else {
            Issue.record("expected .responseTooLarge, got \(String(describing: error))")
            return
        }
        #expect(limit == 1 << 20)
    }

    @Test("A burst of small compressed messages that inflate to 1 MiB each arrives whole, a share per pass")
    func burst() async throws {
        let socket = try await open("deflate-burst", query: ["count": "64"])
        let (messages, error) = await socket.collect()
        #expect(error == nil)
        #expect(messages.count == 64)
        #expect(messages.allSatisfy { $0 == .binary(Data(count: 1 << 20)) })
        #expect(socket.closeCode == .normalClosure)
    }

    @Test("Messages that end the deflate stream with a final block (as Z_FINISH writes) arrive whole, one after another")
    func finalBlocks() async throws {
        let socket = try await open("deflate-final-blocks")
        let (messages, error) = await socket.collect()
        #expect(error == nil)
        #expect(messages == [.text("Hello"), .text("Hello"), .text("Hello"), .text("Hello world"), .text("after")])
        #expect(socket.closeCode == .normalClosure)
    }

    @Test(
        "Broken compressed frames fail the connection with the close code named in the error",
        arguments: [
            ("deflate-control-rsv1", "1002"), ("deflate-continuation-rsv1", "1002"), ("deflate-unnegotiated", "1002"),
            ("deflate-corrupt", "1007"), ("deflate-bad-utf8", "1007"),
        ])
    func brokenFrames(path: String, code: String) async throws {
        let error = try await failure(path)
        guard case .invalidResponse(let reason, _)? = error else {
            Issue.record("expected .invalidResponse, got \(String(describing: error))")
            return
        }
        #expect(reason.contains("closed with \(code)"))
    }

    @Test("A compressed frame without compression offered fails with 1002")
    func compressedWithoutOffer() async throws {
        let error = try await failure("deflate-unnegotiated", configuration: WebSocketConfiguration())
        guard case .invalidResponse(let reason, _)? = error else {
            Issue.record("expected .invalidResponse, got \(String(describing: error))")
            return
        }
        #expect(reason.contains("reserved bits") && reason.contains("closed with 1002"))
    }

    @Test("An answer the offer does not allow fails the handshake naming the problem")
    func refusedAnswers() async {
        #expect(await handshakeFailure("deflate-bad-window")?.contains("'server_max_window_bits' has '7'") == true)
        #expect(await handshakeFailure("deflate-duplicate-parameter")?.contains("'server_no_context_takeover' twice") == true)
        #expect(await handshakeFailure("deflate-value-on-flag")?.contains("takes no value") == true)
        #expect(await handshakeFailure("other-extension")?.contains("'x-webkit-deflate-frame', which was not offered") == true)
        #expect(await handshakeFailure("unoffered-extension", configuration: WebSocketConfiguration())?.contains("not offered") == true)
    }
}
