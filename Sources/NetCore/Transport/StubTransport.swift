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

    /// The answering behaviour.
    public let behavior: Behavior
    public let capabilities: TransportCapabilities
    /// The clock `.delayed` waits on (tests inject one that moves by hand).
    package var clock: any NetClock = SystemClock()

    /// Creates a stub.
    /// - Parameters:
    ///   - behavior: How to answer. Default: ``Behavior/immediate``.
    ///   - capabilities: What the stub claims to support; by default everything, so requests with
    ///     TLS policies or resumable downloads can be tested.
    public init(behavior: Behavior = .immediate, capabilities: TransportCapabilities = [.tlsPolicy, .http2, .resumableDownload, .progress, .proxy]) {
        self.behavior = behavior
        self.capabilities = capabilities
    }

    public func send(_ request: Request, progress: ProgressHandler?) async throws -> Response {
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
