import NetToolbox
import Foundation
import NetCore
import NetCurl
import NetTestSupport
import Testing

/// The curl transport against Python `websockets` (a strict RFC 6455 server), over ws:// and
/// wss://, directly and through the HTTP CONNECT proxy.
@Suite(.liveServers, .serialized)
struct WebSocketEchoLiveTests {
    enum Route: String, CaseIterable, CustomStringConvertible {
        case plain, tls, tlsThroughProxy, plainThroughProxy
        var description: String { rawValue }

        func make() throws -> (Provider<SocketTarget>, URL) {
            switch self {
            case .plain: (SocketServers.provider(), try SocketServers.echo())
            case .tls: (SocketServers.provider(SocketSettings(tls: try SocketServers.trust())), try SocketServers.echoTLS())
            case .tlsThroughProxy:
                (
                    SocketServers.provider(
                        SocketSettings(
                            tls: try SocketServers.trust(pin: TestServers.requireValue("NETKIT_TLS_PIN")),
                            proxy: .init(try ProxyServer(url: TestServers.require("NETKIT_PROXY_URL").absoluteString)))),
                    try SocketServers.echoTLS()
                )
            case .plainThroughProxy:
                (
                    SocketServers.provider(
                        SocketSettings(
                            proxy: .init(try ProxyServer(url: TestServers.require("NETKIT_PROXY_URL").absoluteString)))),
                    try SocketServers.echo()
                )
            }
        }
    }

    @Test("Text and binary messages of every length boundary come back whole", arguments: Route.allCases)
    func echoesEveryBoundary(route: Route) async throws {
        let (provider, base) = try route.make()
        let socket = try await provider.webSocket(SocketTarget(base: base, path: "echo"))
        #expect(socket.response.statusCode == 101)
        let lengths = [0, 1, 125, 126, 127, 65535, 65536, 1 << 20]
        var iterator = socket.messages.makeAsyncIterator()
        for length in lengths {
            let binary = Data((0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31) })
            try await socket.send(.binary(binary))
            #expect(try await iterator.next() == .binary(binary), "binary of \(length) bytes")
        }
        let text = String(repeating: "κόσμε 𝄞 ", count: 5000)
        try await socket.send(.text(text))
        #expect(try await iterator.next() == .text(text))
        try await socket.ping()
        await socket.close(.normalClosure, reason: "done")
        #expect(try await iterator.next() == nil)
        #expect(socket.closeCode == .normalClosure)
    }

    @Test("Through DeduplicatingTransport over CurlTransport a WebSocket echoes like a direct one")
    func throughDeduplicatingTransport() async throws {
        let provider = Provider<SocketTarget>(transport: DeduplicatingTransport(CurlTransport()))
        let socket = try await provider.webSocket(SocketTarget(base: try SocketServers.echo(), path: "echo"))
        #expect(socket.response.statusCode == 101)
        var iterator = socket.messages.makeAsyncIterator()
        try await socket.send(.text("through the wrapper"))
        #expect(try await iterator.next() == .text("through the wrapper"))
        await socket.close(.normalClosure, reason: "done")
        #expect(try await iterator.next() == nil)
    }

    @Test("The offered subprotocol the server picks is reported")
    func subprotocol() async throws {
        let socket = try await SocketServers.provider().webSocket(
            SocketTarget(base: try SocketServers.echo(), path: "echo"), configuration: WebSocketConfiguration(subprotocols: ["superchat", "chat"]))
        #expect(["chat", "superchat"].contains(socket.subprotocol ?? "none"))
        await socket.close()
    }

    @Test("The server's close code and reason end the messages normally")
    func serverCloses() async throws {
        let socket = try await SocketServers.provider().webSocket(
            SocketTarget(base: try SocketServers.echo(), path: "close", query: ["code": "4001", "reason": "bye now"]))
        let (messages, error) = await socket.collect()
        #expect(messages.isEmpty && error == nil)
        #expect(socket.closeCode?.rawValue == 4001)
        #expect(socket.closeReason == "bye now")
        await #expect(throws: NetworkError.self) { try await socket.send(.text("late")) }
    }

    @Test("A 401 handshake is refreshed by a plugin and retried; the retry upgrades")
    func unauthorizedRetried() async throws {
        struct Refresh: Plugin {
            let token = Locked("stale")
            func prepare(_ request: inout Request) async throws -> PrepareAction {
                request.headers["Authorization"] = "Bearer " + token.withLock { $0 }
                return .proceed
            }
            func failure(_ error: NetworkError, for request: Request) async -> FailureAction {
                guard error.statusCode == 401 else { return .proceed }
                token.withLock { $0 = "fresh" }
                return .retry(after: .zero)
            }
        }
        var configuration = ProviderConfiguration()
        configuration.maxAttempts = 2
        let provider = Provider<SocketTarget>(transport: CurlTransport(), plugins: [Refresh()], configuration: configuration)
        let socket = try await provider.webSocket(SocketTarget(base: try SocketServers.echo(), path: "auth"))
        try await socket.send(.text("in"))
        var iterator = socket.messages.makeAsyncIterator()
        #expect(try await iterator.next() == .text("in"))
        await socket.close()
    }

    @Test("Cookies from the provider's jar go with the handshake")
    func cookiesFromJar() async throws {
        let jar = CookieJar()
        let base = try SocketServers.echo()
        jar.storeCookies(fromSetCookie: "session=abc123; Path=/", receivedFrom: URL(string: "http://127.0.0.1:\(base.port!)/")!)
        var configuration = ProviderConfiguration()
        configuration.cookieJar = jar
        let provider = Provider<SocketTarget>(transport: CurlTransport(), configuration: configuration)
        let socket = try await provider.webSocket(SocketTarget(base: base, path: "cookie"))
        let (messages, _) = await socket.collect()
        #expect(messages == [.text("session=abc123")])
    }

    @Test("A pinned wss connection that carries a client certificate opens and echoes (its pins are checked in the handshake)")
    func pinnedWithClientIdentity() async throws {
        func file(_ name: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: try TestServers.requireValue(name))) }
        var tls = try SocketServers.trust(pin: TestServers.requireValue("NETKIT_TLS_PIN"))
        tls.clientIdentity = .pem(certificate: try file("NETKIT_CLIENT_CERT"), key: try file("NETKIT_CLIENT_KEY"))
        let socket = try await SocketServers.provider(SocketSettings(tls: tls)).webSocket(SocketTarget(base: try SocketServers.echoTLS(), path: "echo"))
        try await socket.send(.text("pinned"))
        var iterator = socket.messages.makeAsyncIterator()
        #expect(try await iterator.next() == .text("pinned"))
        await socket.close()
    }

    @Test("A wrong pin with a client certificate fails the wss handshake as a pinning failure")
    func wrongPinWithClientIdentity() async throws {
        func file(_ name: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: try TestServers.requireValue(name))) }
        var tls = try SocketServers.trust(pin: "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=")
        tls.clientIdentity = .pem(certificate: try file("NETKIT_CLIENT_CERT"), key: try file("NETKIT_CLIENT_KEY"))
        let provider = SocketServers.provider(SocketSettings(tls: tls))
        await #expect {
            _ = try await provider.webSocket(SocketTarget(base: try SocketServers.echoTLS(), path: "echo"))
        } throws: { error in
            if case .pinningFailed = error as? NetworkError { return true }
            return false
        }
    }

    @Test("A wrong pin fails the wss handshake before anything is sent")
    func wrongPin() async throws {
        let provider = SocketServers.provider(SocketSettings(tls: try SocketServers.trust(pin: "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=")))
        await #expect {
            _ = try await provider.webSocket(SocketTarget(base: try SocketServers.echoTLS(), path: "echo"))
        } throws: { error in
            if case .pinningFailed = error as? NetworkError { return true }
            return false
        }
    }

    @Test("A burst of 64 messages at the size limit arrives whole and in order through the bounded inbox")
    func backPressure() async throws {
        let socket = try await SocketServers.provider().webSocket(
            SocketTarget(base: try SocketServers.echo(), path: "burst", query: ["count": "64", "size": "65536"]),
            configuration: WebSocketConfiguration(maximumMessageSize: 65536))
        let (messages, error) = await socket.collect()
        #expect(error == nil)
        #expect(messages.count == 64)
        #expect(messages.allSatisfy { $0.byteCount == 65536 })
    }

    @Test("URLSessionTransport on Linux answers with a capability error naming the reason")
    func urlSessionOnLinux() async throws {
        #if canImport(FoundationNetworking)
            let provider = Provider<SocketTarget>(transport: URLSessionTransport())
            await #expect {
                _ = try await provider.webSocket(SocketTarget(base: try SocketServers.echo(), path: "echo"))
            } throws: { error in
                guard case .transport(let reason, _) = error as? NetworkError else { return false }
                return reason.contains("URLSessionTransport cannot open WebSockets on Linux")
            }
        #endif
    }
}
