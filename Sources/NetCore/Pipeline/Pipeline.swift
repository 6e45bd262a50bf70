import NetTransportSupport
import NetBase
import Foundation

/// The request's path: build, prepare, willSend, send, validate, succeed/failure (maybe retry),
/// process. See ``Plugin`` for the rules each hook follows.
final class Pipeline: Sendable {
    let transport: any Transport
    let plugins: PluginManager
    let configuration: ProviderConfiguration
    let builder: RequestBuilder
    /// Who sees the calls' events: the configuration's observers, then `observers` (plugins that observe).
    let observers: [any NetworkEventObserver]
    /// Whether the transport enforces limits and writes downloads itself (asked once: the cast
    /// that answers it costs an allocation).
    let transportEnforcesLimits: Bool

    init(
        transport: any Transport, plugins: PluginManager, configuration: ProviderConfiguration,
        observers: [any NetworkEventObserver] = []
    ) {
        self.transport = transport
        self.plugins = plugins
        self.configuration = configuration
        self.builder = RequestBuilder(configuration: configuration)
        self.transportEnforcesLimits = CustomTransportResponse.isEnforced(by: transport)
        self.observers =
            configuration.eventObservers
            + configuration.integrationObservers.sorted { $0.key < $1.key }.map(\.value).filter(\.isActive).map(\.observer)
            + observers
    }

    /// Runs one call. Its deadline (the request's `timeout`, counted from the moment the first
    /// attempt is ready to send) covers every attempt and every retry wait: each attempt gets
    /// what is left (or the configuration's `attemptTimeout`, when shorter), and a retry whose
    /// wait would pass the deadline is not started, so the caller gets the last real result.
    nonisolated(nonsending) func run(_ target: any TargetType, events: PipelineEvents) async -> Result<Response, NetworkError> {
        let clock = configuration.clock
        let started = clock.now
        let end = await runAttempts(target) { request, deadline in
            let (outcome, finalRequest) = await attemptOnce(request, deadline: &deadline, events: events) { request in
                await send(request, progress: events.onProgress)
            }
            return (outcome, finalRequest, ())
        }
        let (result, request): (Result<Response, NetworkError>, Request)
        switch end {
        case .notBuilt(let failed): (result, request) = (await plugins.process(.failure(failed.error), for: failed.request), failed.request)
        case .finished(let outcome, let last, _): (result, request) = (await plugins.process(outcome, for: last), last)
        }
        request.reportEnd(result, duration: clock.now - started)
        return result
    }

    /// Whether a retry after `attempt` may start: an attempt is left, and waiting `delay` ends
    /// before the call's deadline (or, before the deadline is set, before `request`'s timeout).
    func mayRetry(after attempt: Int, delay: Duration, deadline: ContinuousClock.Instant?, request: Request) -> Bool {
        let now = configuration.clock.now
        return attempt < configuration.maxAttempts && now + delay < (deadline ?? now + request.timeout)
    }

    /// A request that could not be built, and the stand-in request hooks see instead.
    struct BuildFailure: Error {
        let error: NetworkError
        let request: Request
    }

    /// Builds attempt `attempt` of a call; a failure has already been observed (`didReceive`)
    /// unless `observes` is false.
    nonisolated(nonsending) func buildAttempt(
        _ target: any TargetType, id: UUID, attempt: Int, context: RequestContext, storage: CallStorage, observes: Bool = true
    ) async -> Result<Request, BuildFailure> {
        let call = RequestBuilder.CallIdentity(id: id, attempt: attempt, storage: storage, startedAt: configuration.clock.now)
        do {
            return .success(try builder.build(target, call: call, context: context))
        } catch {
            let fallback = builder.fallbackRequest(for: target, call: call, context: context)
            if observes { await plugins.didReceive(.failure(error), for: fallback) }
            return .failure(BuildFailure(error: error, request: fallback))
        }
    }

    enum AttemptOutcome {
        case finished(Result<Response, NetworkError>)
        case retry(after: Duration, Result<Response, NetworkError>)
    }

    /// One attempt from prepare to the succeed/failure decision; observers see its outcome once.
    nonisolated(nonsending) func attemptOnce(
        _ built: Request, deadline: inout ContinuousClock.Instant?, events: PipelineEvents, observesNow: Bool = true,
        transport: (Request) async -> Result<Response, NetworkError>
    ) async -> (AttemptOutcome, Request) {
        var request = built
        let result = await exchange(&request, deadline: &deadline, events: events, transport: transport)
        switch result.outcome {
        case .success(let response): request.report(.response(response))
        case .failure(let error): request.report(.failure(error))
        }
        // A streamed success is observed when its body ends (runStream); everything else now.
        if observesNow || !result.reachedTransport || result.outcome.isFailure {
            await plugins.didReceive(result.outcome, for: request)
        }
        guard result.reachedTransport else { return (.finished(result.outcome), request) }
        switch result.outcome {
        case .success(let response):
            switch await plugins.succeed(response, for: request) {
            case .proceed: return (.finished(result.outcome), request)
            case .retry(let delay): return (.retry(after: delay, result.outcome), request)
            }
        case .failure(let error):
            let decision = await plugins.failure(error, for: request)
            if error.isCancellation || Task.isCancelled { return (.finished(.failure(.cancelled)), request) }
            switch decision {
            case .proceed: return (.finished(result.outcome), request)
            case .retry(let delay): return (.retry(after: delay, result.outcome), request)
            case .recover(let response): return (.finished(.success(response)), request)
            case .fail(let replacement): return (.finished(.failure(replacement)), request)
            }
        }
    }

    /// prepare, checks, willSend and the transport: what one attempt produced, and whether it
    /// came from the transport (only then do `succeed`/`failure` run).
    nonisolated(nonsending) private func exchange(
        _ request: inout Request, deadline: inout ContinuousClock.Instant?, events: PipelineEvents,
        transport: (Request) async -> Result<Response, NetworkError>
    ) async -> (outcome: Result<Response, NetworkError>, reachedTransport: Bool) {
        switch await plugins.prepare(&request, onProvisional: events.onProvisional) {
        case .send: break
        case .respond(let response): return (.success(response), false)
        case .fail(let error): return (.failure(error), false)
        }
        let clock = configuration.clock
        if let deadline {
            let remaining = deadline - clock.now
            guard remaining > .zero else { return (.failure(.timedOut), false) }
            request.timeout = min(request.timeout, remaining)
        } else {
            deadline = clock.now + request.timeout
        }
        if let attemptTimeout = configuration.attemptTimeout { request.timeout = min(request.timeout, attemptTimeout) }
        if Task.isCancelled { return (.failure(.cancelled), false) }
        if let invalid = RequestValidation.check(request) { return (.failure(invalid), false) }
        if let stop = await plugins.willSend(request) { return (.failure(stop), false) }
        let result = await transport(request)
        // A transport held up past the deadline (a stalled engine, a late completion) must not
        // turn a call its caller already gave up on into a success.
        if case .success = result, let deadline, clock.now > deadline { return (.failure(.timedOut), true) }
        return (result, true)
    }

    /// Transport plus validation.
    nonisolated(nonsending) private func send(_ request: Request, progress: ProgressHandler?) async -> Result<Response, NetworkError> {
        await validated(request) { request in
            let sent = try await transport.send(request, progress: progress)
            // A custom transport cannot see the request's limits and download: enforced here.
            let response = try CustomTransportResponse.completed(sent, for: request, enforcedByTransport: transportEnforcesLimits)
            CapabilityCheck.finishProgress(progress, for: response, of: transport)
            return try DownloadPlacement.place(response, for: request)
        }
    }

    /// The TLS checks, `exchange` (with the cookie jar when the transport does not apply it),
    /// and validation of its response.
    func validated(_ request: Request, _ exchange: (Request) async throws -> Response) async -> Result<Response, NetworkError> {
        if let refusal = CapabilityCheck.refusal(of: request, by: transport) { return .failure(refusal) }
        var response: Response
        do {
            response = try await CapabilityCheck.withCookieJar(request, by: transport, exchange)
            // Transports that know the attempt set it already; a change would copy the response.
            if let metrics = response.metrics, metrics.attempt != request.attempt { response.metrics?.attempt = request.attempt }
        } catch {
            return .failure(Task.isCancelled ? .cancelled : NetworkError(error))
        }
        if let failure = configuration.validation(for: request.target).check(response) { return .failure(failure) }
        return .success(response)
    }
}

extension Result {
    /// Whether this is a failure.
    var isFailure: Bool {
        if case .failure = self { return true }
        return false
    }
}
