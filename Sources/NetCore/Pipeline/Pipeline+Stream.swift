import NetToolbox
import NetBase
import Foundation

extension Pipeline {
    /// Runs a streamed call: the usual hooks up to `succeed`/`failure` on the response head
    /// (retries happen before any body byte reaches the reader), then the head goes to the
    /// reader; `didReceive` and `process` run when the body ends.
    func runStream(_ target: any TargetType, options: StreamOptions, head: StreamHead) async {
        let clock = configuration.clock
        let started = clock.now
        /// What a streamed attempt keeps: its sink, and whether the body went into it.
        struct Streamed {
            let sink: ResponseBodySink
            let bodyInSink: Bool
        }
        let end = await runAttempts(target) { built, deadline in
            var request = built
            request.streamsResponseBody = true
            // The idle timeout replaces the request's timeout only in a transport that streams
            // (Transport.streamResponse); one that answers whole keeps the call's timeout.
            request.streamIdleTimeout = options.idleTimeout
            if let lastEventID = options.lastEventID { request.headers["Last-Event-ID"] = lastEventID }
            let sink = ResponseBodySink(options: options)
            let streamed = Locked(false)
            let (outcome, finalRequest) = await attemptOnce(request, deadline: &deadline, events: PipelineEvents(), observesNow: false) { request in
                streamed.withLock { $0 = true }
                return await validated(request) { request in try await transport.streamResponse(request, into: sink) }
            }
            return (outcome, finalRequest, Streamed(sink: sink, bodyInSink: streamed.withLock { $0 }))
        } abandon: { streamed, result, request in
            // attemptOnce left a streamed success for the end of its body; it ends here.
            if streamed.bodyInSink, !result.isFailure { await plugins.didReceive(result, for: request) }
            streamed.sink.cancel()
        }
        switch end {
        case .notBuilt(let failed):
            head.deliver(.failure(failed.error))
            let result = await plugins.process(.failure(failed.error), for: failed.request)
            failed.request.reportEnd(result, duration: clock.now - started)
        case .finished(let result, let request, let streamed):
            let final = await finish(result, sink: streamed.sink, bodyInSink: streamed.bodyInSink, request: request, head: head)
            request.reportEnd(final, duration: clock.now - started)
        }
    }

    /// Hands the head to the reader, waits for the body's end, then observes and processes it.
    private func finish(
        _ result: Result<Response, NetworkError>, sink: ResponseBodySink, bodyInSink: Bool, request: Request, head: StreamHead
    ) async -> Result<Response, NetworkError> {
        guard case .success(let response) = result, bodyInSink, StatusRules.isSuccess(response.statusCode) else {
            // A failure, a non-2xx accepted by validation, or a response a plugin answered with in
            // `prepare`: the body (if any) is whole, in the response. A transport success was not
            // observed yet (attemptOnce defers streamed successes).
            // No reader will ever see this sink: stop the transfer that may still be filling it
            // (a 2xx head that validation refused keeps streaming otherwise).
            sink.cancel()
            if bodyInSink, !result.isFailure { await plugins.didReceive(result, for: request) }
            if case .success(let response) = result {
                let whole = ResponseBodySink(options: sink.options)
                whole.yield(response.data)
                whole.finish()
                head.deliver(.success((response, whole)))
            } else {
                head.deliver(result.map { ($0, sink) })
            }
            return await plugins.process(result, for: request)
        }
        head.deliver(.success((response, sink)))
        let end = await withTaskCancellationHandler {
            await sink.ended()
        } onCancel: {
            sink.cancel()
        }
        var final = response
        final.metrics?.bytesReceived = sink.deliveredBytes
        let outcome: Result<Response, NetworkError> = end.map { .failure($0) } ?? .success(final)
        await plugins.didReceive(outcome, for: request)
        return await plugins.process(outcome, for: request)
    }
}
