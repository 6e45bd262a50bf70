import NetTransportSupport
import NetWebSocketCore
import NetToolbox
import NetBase
import Foundation

extension Pipeline {
    /// Opens a WebSocket through the usual hooks: each attempt's handshake request runs
    /// `prepare` and `willSend`, the handshake's answer `didReceive` and `succeed`/`failure`
    /// (so a 401 can be refreshed and retried within the call's deadline), the final answer
    /// `process`. The connection of an attempt that is retried or refused is closed. Each of
    /// `observing` is asked for an observer of the open connection (its messages and close).
    func runWebSocket(
        _ target: any TargetType, configuration socketConfiguration: WebSocketConfiguration,
        observing: [any WebSocketObservingPlugin] = []
    ) async -> Result<WebSocket, NetworkError> {
        let end = await runAttempts(target) { built, deadline in
            var request = built
            let handshake = WebSocketHandshake(subprotocols: socketConfiguration.subprotocols, compression: socketConfiguration.compression)
            request.headers = handshake.requestHeaders(over: request.headers)
            let opened = Locked<WebSocketOpening?>(nil)
            let (outcome, finalRequest) = await attemptOnce(request, deadline: &deadline, events: PipelineEvents()) { request in
                await openWebSocket(request, handshake: handshake, configuration: socketConfiguration, into: opened)
            }
            return (outcome, finalRequest, opened)
        } abandon: { opened, _, _ in
            Self.closeOpened(opened)
        }
        switch end {
        case .notBuilt(let failed):
            if case .failure(let error) = await plugins.process(.failure(failed.error), for: failed.request) { return .failure(error) }
            return .failure(failed.error)
        case .finished(let result, let request, let opened):
            let processed = await plugins.process(result, for: request)
            guard case .success(let response) = processed, case .upgraded(_, let subprotocol, let connection)? = opened.withLock({ $0 }) else {
                Self.closeOpened(opened)
                if case .failure(let error) = processed { return .failure(error) }
                return .failure(.invalidResponse(reason: "a plugin answered the WebSocket handshake with a response of its own; no connection is open"))
            }
            let observers = observing.compactMap { $0.webSocketOpened(request, response: response, subprotocol: subprotocol) }
            let observed = observers.isEmpty ? connection : ObservedWebSocketConnection(connection, observers: observers)
            return .success(WebSocket(response: response, subprotocol: subprotocol, connection: observed))
        }
    }

    /// The transport's handshake with the capability and TLS checks, the cookie jar, and
    /// validation: a 101 stands; another answer is validated like any response (a 401 fails
    /// it and may be retried), and one validation accepts is still no WebSocket.
    private func openWebSocket(
        _ request: Request, handshake: WebSocketHandshake, configuration socketConfiguration: WebSocketConfiguration,
        into opened: Locked<WebSocketOpening?>
    ) async -> Result<Response, NetworkError> {
        let sockets: any WebSocketTransport
        do {
            sockets = try Self.webSocketTransport(transport)
        } catch {
            return .failure(error)
        }
        if let refusal = CapabilityCheck.refusal(of: request, by: transport) { return .failure(refusal) }
        let response: Response
        do {
            let exchange: (Request) async throws -> Response = { request in
                let opening = try await sockets.openWebSocket(request, handshake: handshake, configuration: socketConfiguration)
                opened.withLock { $0 = opening }
                return opening.response
            }
            response = try await CookieJar.exchange(request, exchange)
        } catch {
            return .failure(Task.isCancelled ? .cancelled : NetworkError(error))
        }
        if response.statusCode == 101 { return .success(response) }
        if let failure = configuration.validation(for: request.target).check(response) { return .failure(failure) }
        return .failure(.invalidResponse(reason: "the WebSocket handshake was answered with \(response.statusCode), not 101 Switching Protocols"))
    }

    /// `transport` as one that opens WebSockets (the pipeline's and the wrapping transports' one
    /// check), or the error naming why it cannot.
    static func webSocketTransport(_ transport: any Transport) throws(NetworkError) -> any WebSocketTransport {
        guard let sockets = transport as? any WebSocketTransport else { throw .transport(reason: unsupportedReason(transport)) }
        return sockets
    }

    /// Why `transport` cannot open WebSockets.
    static func unsupportedReason(_ transport: any Transport) -> String {
        let name = String(describing: type(of: transport))
        #if canImport(FoundationNetworking)
            if name == "URLSessionTransport" {
                return "URLSessionTransport cannot open WebSockets on Linux: FoundationNetworking's URLSessionWebSocketTask "
                    + "needs a libcurl built with WebSocket support (curl 8.11 or later by default), and this one is not; "
                    + "use CurlTransport (the default transport on Linux). Nothing was sent"
            }
        #endif
        return "\(name) cannot open WebSockets; use the default transport, CurlTransport, or WebSocketStubTransport in tests. Nothing was sent"
    }

    /// Lets go of an attempt's open connection (late past the deadline, refused by a plugin,
    /// retried): it is closed with 1001 in the background, so the call never waits for the peer's
    /// close frame (up to ``WebSocketConfiguration/closeTimeout``).
    private static func closeOpened(_ opened: Locked<WebSocketOpening?>) {
        let opening = opened.withLock { opening in
            defer { opening = nil }
            return opening
        }
        if case .upgraded(_, _, let connection)? = opening { connection.abandon() }
    }
}
