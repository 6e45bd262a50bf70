import Foundation
import NetCore
import NetCurl
import NetTestSupport
import Testing

/// A WebSocket endpoint on one of the servers `scripts/servers.sh` starts.
struct SocketTarget: TargetType, CustomStringConvertible {
    var base: URL
    var path: String
    var query: [String: String] = [:]
    var timeout: Duration? = .seconds(10)

    var baseURL: URL { base }
    var method: HTTPMethod { .get }
    var content: RequestContent { query.isEmpty ? .plain : .query(Parameters(query.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })) }
    var description: String { "socket \(path)" }
}

/// Sets a request's TLS policy (trust the run's certificate, maybe a pin) and proxy.
struct SocketSettings: Plugin {
    var tls: TLSPolicy?
    var proxy: ProxyConfiguration?

    func prepare(_ request: inout Request) async throws -> PrepareAction {
        if let tls { request.tls = tls }
        if let proxy { request.proxy = proxy }
        return .proceed
    }
}

enum SocketServers {
    static func echo() throws -> URL { try TestServers.require("NETKIT_WS_URL") }
    static func echoTLS() throws -> URL { try TestServers.require("NETKIT_WSS_URL") }
    static func fault() throws -> URL { try TestServers.require("NETKIT_WS_FAULT_URL") }

    /// Trusts the run's self-signed certificate (and pins its key when `pin` is given).
    static func trust(pin: String? = nil) throws -> TLSPolicy {
        let path = try TestServers.requireValue("NETKIT_TLS_CERT")
        let certificate = try Data(contentsOf: URL(fileURLWithPath: path))
        return TLSPolicy(pinnedKeyHashes: pin.map { [$0] } ?? [], trustedCertificates: [certificate])
    }

    /// A curl provider whose requests carry `settings`.
    static func provider(_ settings: SocketSettings = SocketSettings(), plugins: [any Plugin] = []) -> Provider<SocketTarget> {
        Provider<SocketTarget>(transport: CurlTransport(), plugins: [settings] + plugins)
    }

    /// Opens a connection to the fault server's `path`.
    static func openFault(
        _ path: String, query: [String: String] = [:], configuration: WebSocketConfiguration = .init()
    ) async throws -> WebSocket {
        try await provider().webSocket(SocketTarget(base: try fault(), path: path, query: query), configuration: configuration)
    }

    /// The reason of the `.invalidResponse` a handshake to the fault server's `path` fails with
    /// (`nil` when it opened).
    static func handshakeFailure(_ path: String, configuration: WebSocketConfiguration = .init()) async -> String? {
        do {
            let socket = try await openFault(path, configuration: configuration)
            await socket.close()
            return nil
        } catch {
            guard case .invalidResponse(let reason, _)? = error as? NetworkError else { return "unexpected \(error)" }
            return reason
        }
    }
}

extension WebSocket {
    /// Every message until the close (or the error that ended them).
    func collect() async -> (messages: [Message], error: NetworkError?) {
        var messages: [Message] = []
        do {
            for try await message in self.messages { messages.append(message) }
            return (messages, nil)
        } catch {
            return (messages, NetworkError(error))
        }
    }
}
