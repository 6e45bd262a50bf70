#if canImport(FoundationNetworking)
    import NetToolbox
    import FoundationNetworking
#endif
import Foundation
import NetBase

/// One request's life inside ``URLSessionTransport``: the task, the deadline timer, progress
/// polling, and a continuation resumed exactly once.
///
/// The lifecycle is an ``ExchangeStateMachine`` that owns the caller's continuation, the task and
/// the body: every event runs through it under the lock, and the action it returns (resume or
/// cancel the task, answer the caller, feed the stream) is performed by ``perform(_:outcome:)``
/// after the lock is released, the one place that answers the caller. Timeouts and cancellation
/// resume the caller at once instead of waiting for URLSession to call back, so a task URLSession
/// never completes (the Linux 401 `Basic` bug) cannot hang a request.
final class Exchange: Sendable {
    typealias StopReason = ExchangeStopReason
    typealias Caller = CheckedContinuation<Response, any Error>
    typealias Machine = ExchangeStateMachine<Caller, URLSessionTask>

    struct State {
        var machine = Machine()
        var challengeResponse: HTTPURLResponse?
        var uploaded: Int64 = 0
        var uploadTotal: Int64?
        var downloadTotal: Int64?
        var lastActivity = ContinuousClock.now
        /// Response heads seen: a second one means FoundationNetworking started the request over.
        var heads = 0
        /// What URLSession measured, once it says (before the task completes, where it does).
        var collected: CollectedMetrics?
    }

    let request: Request
    /// When the request must have ended; for a stream whose head arrived, the idle deadline or
    /// the total, whichever comes first.
    var deadline: ContinuousClock.Instant {
        guard let stream else { return headDeadline }
        return state.withLock { state in
            guard state.machine.isStreaming else { return headDeadline }
            let idle = state.lastActivity + request.timeout
            guard let total = stream.options.totalTimeout else { return idle }
            return min(idle, startInstant + total)
        }
    }
    private let headDeadline: ContinuousClock.Instant
    /// Where a streamed 2xx body goes, or `nil`.
    let stream: ResponseBodySink?
    let progress: ProgressHandler?
    let clock = ContinuousClock()
    let startInstant: ContinuousClock.Instant
    let startDate = Date()
    // Every mutable field lives in this mutex; the continuation, task and body in its machine.
    let state = Locked(State())

    /// Where tasks are made, resumed and cancelled, one queue per transport.
    /// FoundationNetworking's task methods wait for the session's own work queue; called from a
    /// Swift concurrency thread (a reader pulling a chunk, a cancellation handler) they would
    /// block one of the few threads every task shares. Serial, and every call is queued while
    /// the state lock is held, so the calls run in the order the state machine decided them (a
    /// resume never overtakes the cancel that follows it).
    private let control: DispatchQueue

    init(
        request: Request, progress: ProgressHandler?, control: DispatchQueue, stream: ResponseBodySink? = nil
    ) {
        self.control = control
        self.request = request
        self.progress = progress
        self.stream = stream
        self.startInstant = clock.now
        self.headDeadline = startInstant + request.timeout
    }

    /// Whether someone wants progress reports.
    var reportsProgress: Bool { progress != nil }

    /// What a caller or a stream's reader gets: made from the body for a completed task, or from
    /// `nil` for a streamed head or a stream's end.
    typealias Outcome = (Data?) -> Result<Response, NetworkError>

    /// Runs `event` under the lock (on the machine and the fields beside it), then performs the
    /// action it returned. The deadline is unwatched when the machine says no one waits any more.
    /// - Parameter watched: whether the exchange was watched before the event even if the
    ///   machine did not say so yet (a caller starting to wait).
    func handle(_ event: (inout State) -> Machine.Action, watched: Bool = false, outcome: Outcome = { _ in .failure(.cancelled) }) {
        let (action, ended) = state.withLock { state -> (Machine.Action, Bool) in
            let wasWatched = watched || state.machine.hasDeadline
            let action = event(&state)
            // Queued under the lock, in the machine's order (see `control`).
            switch action {
            case .startTask(let task): control.async { task.resume() }
            case .cancelUnstartedTask(let task), .cancelTask(let task, _, _): control.async { task.cancel() }
            default: break
            }
            return (action, wasWatched && !state.machine.hasDeadline)
        }
        if ended { DeadlineWatcher.shared.unwatch(self) }
        perform(action, outcome: outcome)
    }

    /// The caller waits for the response. The deadline is watched from before the machine hears
    /// of it, so a stop racing this wait always finds the exchange watched and unwatches it.
    func wait(_ caller: Caller) {
        DeadlineWatcher.shared.watch(self)
        handle({ $0.machine.wait(caller) }, watched: true)
    }

    /// Starts `task`, unless the request was stopped before it could start (then cancels it).
    func start(_ task: URLSessionTask) {
        handle { $0.machine.start(task) }
    }

    /// Ends the request now with `reason`; URLSession's later callbacks are ignored.
    func stop(because reason: StopReason) {
        handle { $0.machine.stop(reason) }
    }

    /// The task ended; the body is what ``receive(_:)-(Data)`` collected.
    func finish(response: URLResponse?, error: (any Error)?) {
        handle({ $0.machine.taskCompleted() }) { [request] body in
            if let body { return self.result(data: body, fileURL: nil, response: response, error: error) }
            // A stream: the body went to the reader; only how the transfer ended is left.
            return error.map { .failure(URLErrorMapping.map($0, host: request.host)) } ?? .success(Response(statusCode: 200, request: request))
        }
    }

    /// Performs what the machine decided: the one place that answers the caller or ends the stream.
    private func perform(_ action: Machine.Action, outcome: Outcome) {
        switch action {
        case .none, .startTask, .cancelUnstartedTask, .moveDownload, .forwardToStream:
            break
        case .failCaller(let caller, let reason), .cancelTask(_, .caller(let caller), let reason):
            caller.resume(throwing: reason.error)
        case .cancelTask(_, .stream, let reason):
            stream?.finish(throwing: reason.error)
        case .deliverHead(let caller):
            caller.resume(with: outcome(nil).mapError { $0 as any Error })
        case .finishCaller(let caller, let body):
            let result = outcome(body)
            if case .success(let response) = result { reportFinalProgress(response) }
            caller.resume(with: result.mapError { $0 as any Error })
        case .finishStream:
            switch outcome(nil) {
            case .success: stream?.finish()
            case .failure(let error): stream?.finish(throwing: error)
            }
        }
    }
}
