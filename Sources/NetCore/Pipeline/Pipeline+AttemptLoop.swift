import NetBase
import Foundation

extension Pipeline {
    /// The provider's observers and those of the task that starts the call (``TaskEventObservers``).
    var callObservers: [any NetworkEventObserver] {
        let added = TaskEventObservers.current
        return added.isEmpty ? observers : observers + added
    }

    /// How a call's attempts ended.
    enum CallEnd<Attempt> {
        /// The request could not be built; nothing was sent (`didReceive` has seen it).
        case notBuilt(BuildFailure)
        /// The result that stands (no retry asked, no attempt left, the deadline, or a
        /// cancellation during the retry wait), with the request and what the last attempt kept.
        case finished(Result<Response, NetworkError>, Request, Attempt)
    }

    /// The attempt loop of every call, requests and streams alike: build the attempt's request,
    /// run it, and while it asks for a retry that `mayRetry` allows, wait and run the next
    /// attempt with the context the last one left. The call's deadline is set by the first
    /// attempt (see ``run(_:events:)``). The result that stands is the last attempt's, unchanged:
    /// how many attempts were made is its request's ``Request/attempt``, never part of an error's
    /// reason.
    /// - Parameters:
    ///   - attempt: Runs one attempt of a built request (which it may adjust first).
    ///   - abandon: Releases what an attempt kept when it is retried.
    nonisolated(nonsending) func runAttempts<Attempt>(
        _ target: any TargetType,
        attempt: (Request, inout ContinuousClock.Instant?) async -> (AttemptOutcome, Request, Attempt),
        abandon: (Attempt, Result<Response, NetworkError>, Request) async -> Void = { _, _, _ in }
    ) async -> CallEnd<Attempt> {
        let id = RequestIdentifier.next()
        let storage = CallStorage(observers: callObservers)
        var deadline: ContinuousClock.Instant?
        var context = RequestContext()
        var number = 1
        while true {
            let request: Request
            switch await buildAttempt(target, id: id, attempt: number, context: context, storage: storage) {
            case .success(let built): request = built
            case .failure(let failed):
                if number == 1 { failed.request.report(.callStarted) }
                failed.request.report(.failure(failed.error))
                return .notBuilt(failed)
            }
            if number == 1 { request.report(.callStarted) }
            request.report(.attemptStarted)
            let (outcome, finalRequest, kept) = await attempt(request, &deadline)
            switch outcome {
            case .finished(let result):
                return .finished(result, finalRequest, kept)
            case .retry(let delay, let result):
                guard mayRetry(after: number, delay: delay, deadline: deadline, request: finalRequest) else {
                    return .finished(result, finalRequest, kept)
                }
                finalRequest.report(.retryScheduled(after: delay, reason: result))
                await abandon(kept, result, finalRequest)
                // A cancelled call's sleep ends at once (the check below then ends the call).
                if delay > .zero { try? await configuration.clock.sleep(for: delay) }
                guard !Task.isCancelled else { return .finished(.failure(.cancelled), finalRequest, kept) }
                number += 1
                context = finalRequest.context
            }
        }
    }
}
