import Foundation
import NetCore
import NetCurl
import NetTestSupport
import Testing

/// permessage-deflate (RFC 7692) on the curl transport against Python `websockets`, which
/// compresses every message once it agreed and checks ours strictly, over ws:// and wss://.
@Suite(.liveServers, .serialized)
struct WebSocketCompressionLiveTests {
    /// An echo path of `scripts/ws_echo_server.py` and the agreement it answers with.
    enum Agreement: String, CaseIterable, CustomStringConvertible {
        /// Context takeover both ways, 12-bit windows.
        case echo
        /// Each message compressed on its own, both ways.
        case noContext = "echo-no-context"
        /// 9-bit windows both ways.
        case smallWindows = "echo-window-9"
        var description: String { rawValue }

        var expectedAnswer: [String] {
            switch self {
            case .echo: ["permessage-deflate", "server_max_window_bits=12", "client_max_window_bits=12"]
            case .noContext: ["permessage-deflate", "server_no_context_takeover", "client_no_context_takeover"]
            case .smallWindows: ["permessage-deflate", "server_max_window_bits=9", "client_max_window_bits=9"]
            }
        }
    }

    func open(_ agreement: Agreement, tls: Bool) async throws -> WebSocket {
        let provider = tls ? SocketServers.provider(SocketSettings(tls: try SocketServers.trust())) : SocketServers.provider()
        let base = tls ? try SocketServers.echoTLS() : try SocketServers.echo()
        return try await provider.webSocket(SocketTarget(base: base, path: agreement.rawValue), configuration: WebSocketConfiguration(compression: true))
    }

    @Test(
        "Compressed text and binary messages of sizes around the 64 KiB chunk come back whole, repeated over the kept context",
        arguments: Agreement.allCases, [false, true])
    func echoes(agreement: Agreement, tls: Bool) async throws {
        let socket = try await open(agreement, tls: tls)
        let answer = (socket.response.headers["Sec-WebSocket-Extensions"] ?? "").split(separator: ";").map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        #expect(answer == agreement.expectedAnswer)
        var iterator = socket.messages.makeAsyncIterator()
        for size in [0, 1, 125, 65535, 65536, 65537, 200_000, 1 << 20] {
            // Compressible, but not to nothing: a counter with every seventh byte varied.
            let binary = Data((0..<size).map { $0 % 7 == 0 ? UInt8(truncatingIfNeeded: $0 &* 131) : UInt8(truncatingIfNeeded: $0 / 7) })
            for round in 1...2 {
                try await socket.send(.binary(binary))
                #expect(try await iterator.next() == .binary(binary), "binary of \(size) bytes, round \(round)")
            }
        }
        let text = String(repeating: "κόσμε 𝄞 compressed ", count: 10_000)
        for round in 1...3 {
            try await socket.send(.text(text))
            #expect(try await iterator.next() == .text(text), "text, round \(round)")
        }
        await socket.close(.normalClosure, reason: "done")
        #expect(try await iterator.next() == nil)
        #expect(socket.closeCode == .normalClosure)
    }

    @Test("A server that declines compression gets plain messages, and the connection works")
    func declined() async throws {
        let socket = try await SocketServers.provider().webSocket(
            SocketTarget(base: try SocketServers.echo(), path: "burst", query: ["count": "3", "size": "70000"]),
            configuration: WebSocketConfiguration(compression: true))
        #expect(socket.response.headers["Sec-WebSocket-Extensions"] == nil)
        let (messages, error) = await socket.collect()
        #expect(error == nil)
        #expect(messages == Array(repeating: .binary(Data(repeating: UInt8(ascii: "x"), count: 70000)), count: 3))
    }
}
