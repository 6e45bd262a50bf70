import NetTransportSupport
import NetWebSocketCore
import NetToolbox
import NetBase
import Foundation

/// A transport that answers with each target's ``TargetType/sampleResponse`` without touching the
/// network: how you unit-test code that uses a ``Provider``.
///
/// Every plugin hook still runs, so plugins are tested too.
///
/// ```swift
/// let provider = Provider<HTTPBin>(transport: StubTransport(behavior: .delayed(.milliseconds(50))))
/// let stub = StubTransport(behavior: .custom { request in
///     Response(statusCode: 503, request: request)
/// })
/// ```
///
/// To stub some targets and send the rest (Moya's `stubClosure`), choose per target; `nil` sends
/// the request through `network`:
///
/// ```swift
/// let transport = StubTransport { target in
///     switch target as? API {
///     case .login?: .immediate              // not ready on the server yet
///     case .feed?: .delayed(.milliseconds(300))
///     default: nil                          // real network
///     }
/// }
/// ```
public struct StubTransport: Transport {
    /// How the stub answers.
    public enum Behavior: Sendable {
        /// Answer with the sample response at once.
        case immediate
        /// Answer with the sample response after a delay (cancellable; a delay longer than the
        /// request's timeout ends in ``NetworkError/timedOut``).
        case delayed(Duration)
        /// Answer with whatever the closure returns or throws. The closure runs in the call's
        /// task: ``Provider/cancelAll()`` and the caller's cancellation cancel it like any task
        /// (`Task.sleep`, `withTaskCancellationHandler` and `AsyncStream` waits end).
        case custom(@Sendable (Request) async throws -> Response)
    }

    /// The behaviour for a target (the wrapped one for an ``AnyTarget``); `nil` sends to ``network``.
    private let choose: @Sendable (any TargetType) -> Behavior?
    /// Sends what is not stubbed; `nil` when every target is stubbed.
    private let network: (any Transport)?
    public let capabilities: TransportCapabilities
    /// The clock `.delayed` waits on (tests inject one that moves by hand).
    package var clock: any NetClock = SystemClock()

    /// Creates a stub that answers every request the same way.
    /// - Parameters:
    ///   - behavior: How to answer. Default: ``Behavior/immediate``.
    ///   - capabilities: What the stub claims to support; by default everything, so requests with
    ///     TLS policies or resumable downloads can be tested.
    public init(behavior: Behavior = .immediate, capabilities: TransportCapabilities = [.tlsPolicy, .http2, .resumableDownload, .progress, .proxy]) {
        self.choose = { _ in behavior }
        self.network = nil
        self.capabilities = capabilities
    }

    /// Creates a stub that chooses per target: a behaviour answers from the sample response, `nil`
    /// sends the request through `network`. Capabilities are the network transport's.
    /// - Parameters:
    ///   - network: Sends what is not stubbed. Default: ``DefaultTransport/shared``.
    ///   - behavior: The behaviour for a target (the wrapped one for an ``AnyTarget``), or `nil`.
    public init(network: any Transport = DefaultTransport.shared, _ behavior: @escaping @Sendable (any TargetType) -> Behavior?) {
        self.choose = behavior
        self.network = network
        self.capabilities = network.capabilities
    }

    /// Answers as the target's behaviour says, or sends through the network transport.
    public func send(_ request: Request, progress: ProgressHandler?) async throws -> Response {
        guard let behavior = choose(request.originalTarget) else {
            guard let network else { throw NetworkError.transport(reason: "StubTransport: no behaviour and no network transport") }
            return try await network.send(request, progress: progress)
        }
        return try await answer(request, behavior: behavior, progress: progress)
    }

    private func answer(_ request: Request, behavior: Behavior, progress: ProgressHandler?) async throws -> Response {
        let started = Date()
        let start = clock.now
        var response: Response
        switch behavior {
        case .immediate:
            try checkCancellation(request)
            response = try sampleResponse(for: request)
        case .delayed(let delay):
            do { try await clock.sleep(for: min(delay, request.timeout)) } catch { throw NetworkError.cancelled }
            if delay > request.timeout { throw NetworkError.timedOut }
            response = try sampleResponse(for: request)
        case .custom(let answer):
            try checkCancellation(request)
            do {
                response = try await answer(request)
            } catch {
                throw Task.isCancelled ? NetworkError.cancelled : NetworkError(error)
            }
        }
        let bytes = Int64(response.data.count)
        if let download = request.download, response.fileURL == nil {
            try response.storeDownload(at: download)
        }
        if capabilities.contains(.progress), let progress {
            CapabilityCheck.finalEvents(sent: request.body.contentLength ?? 0, received: bytes, to: progress)
        }
        if response.metrics == nil {
            response.metrics = ResponseMetrics(
                startDate: started, duration: clock.now - start,
                bytesSent: request.body.contentLength ?? 0, bytesReceived: bytes)
        }
        return response
    }

    private func checkCancellation(_ request: Request) throws(NetworkError) {
        if Task.isCancelled { throw .cancelled }
    }

    private func sampleResponse(for request: Request) throws(NetworkError) -> Response {
        let sample = request.target.sampleResponse
        if let error = sample.error { throw error }
        if let cause = sample.failureCause { throw URLErrorMapping.map(cause, host: request.host) }
        return Response(
            statusCode: sample.statusCode, headers: sample.headers, data: sample.data,
            request: request, source: .stub)
    }
}

extension StubTransport: StreamingTransport {
    /// Streams through the network transport when the target is not stubbed; a stubbed answer is
    /// handed over whole. The behaviour is chosen once per request.
    package func stream(_ request: Request, into body: ResponseBodySink) async throws -> Response {
        guard let behavior = choose(request.originalTarget) else {
            guard let network else {
                let error = NetworkError.transport(reason: "StubTransport: no behaviour and no network transport")
                body.finish(throwing: error)
                throw error
            }
            return try await network.streamResponse(request, into: body)
        }
        return try await WholeStream.deliver(request, into: body, enforcingLimits: false) { request in
            try await answer(request, behavior: behavior, progress: nil)
        }
    }

    /// Stubbed answers are written to their download here; the network transport's, by it or
    /// (a custom one) by the pipeline.
    package var enforcesLimitsAndDownloads: Bool { network.map(CustomTransportResponse.isEnforced(by:)) ?? true }
}

extension StubTransport: WebSocketTransport {
    /// Opens through the network transport when the target is not stubbed (and the network
    /// transport can open WebSockets); a stubbed target cannot be upgraded: use
    /// ``WebSocketStubTransport`` to script a WebSocket peer.
    package func openWebSocket(
        _ request: Request, handshake: WebSocketHandshake, configuration: WebSocketConfiguration
    ) async throws -> WebSocketOpening {
        guard choose(request.originalTarget) == nil, let network else {
            throw NetworkError.transport(
                reason: "StubTransport cannot open WebSockets for a stubbed target (\(targetDescription(request.target))): "
                    + "return nil for it to open through the network transport, or use WebSocketStubTransport. Nothing was sent")
        }
        return try await Pipeline.webSocketTransport(network).openWebSocket(request, handshake: handshake, configuration: configuration)
    }
}
