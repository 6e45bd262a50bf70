#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import Foundation
import NetBase

/// One request's life inside ``URLSessionTransport``: the task, the deadline timer, progress
/// polling, and a continuation resumed exactly once.
///
/// The lifecycle is an ``ExchangeStateMachine``: every event runs through it under the lock, and
/// the action it returns (resume or cancel the task, answer the caller, feed the stream)
/// is performed after the lock is released. Timeouts and cancellation resume the caller at once
/// instead of waiting for URLSession to call back, so a task URLSession never completes (the
/// Linux 401 `Basic` bug) cannot hang a request.
final class Exchange: Sendable {
    typealias StopReason = ExchangeStopReason

    struct State {
        var machine = ExchangeStateMachine()
        var continuation: CheckedContinuation<Response, any Error>?
        var task: URLSessionTask?
        var challengeResponse: HTTPURLResponse?
        /// The body received so far (responses kept in memory).
        var body = Data()
        var uploaded: Int64 = 0
        var uploadTotal: Int64?
        var downloadTotal: Int64?
        var lastActivity = ContinuousClock.now
        /// Response heads seen: a second one means FoundationNetworking started the request over.
        var heads = 0
        /// What URLSession measured, once it says (before the task completes, where it does).
        var collected: CollectedMetrics?

        /// Hands out the continuation and forgets the task and the body: the exchange has ended.
        mutating func end() -> CheckedContinuation<Response, any Error>? {
            defer {
                continuation = nil
                task = nil
                body = Data()
            }
            return continuation
        }
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
    // Every mutable field lives in this mutex.
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

    var continuation: CheckedContinuation<Response, any Error>? {
        get { state.withLock { $0.continuation } }
        set { state.withLock { $0.continuation = newValue } }
    }

    /// Starts `task` with its deadline, unless the request was stopped before it could start.
    func start(_ task: URLSessionTask) {
        // Watched before the task can run: a stop racing this start then always finds the
        // exchange watched and unwatches it (watching afterwards could outlive that stop).
        DeadlineWatcher.shared.watch(self)
        let (action, continuation) = state.withLock { state -> (ExchangeStateMachine.Action, CheckedContinuation<Response, any Error>?) in
            let action = state.machine.start()
            switch action {
            case .startTask:
                state.task = task
                control.async { task.resume() }
                return (action, nil)
            case .cancelUnstartedTask:
                control.async { task.cancel() }
                return (action, state.end())
            default:
                return (action, nil)
            }
        }
        switch action {
        case .startTask:
            break
        case .cancelUnstartedTask(let reason):
            answerCaller(continuation, with: .failure(reason.error))
        default:
            DeadlineWatcher.shared.unwatch(self)
        }
    }

    /// Ends the request now with `reason`; URLSession's later callbacks are ignored.
    func stop(because reason: StopReason) {
        let (action, continuation) = state.withLock {
            state -> (ExchangeStateMachine.Action, CheckedContinuation<Response, any Error>?) in
            let action = state.machine.stop(reason)
            if case .failCaller = action { return (action, state.end()) }
            guard case .cancelTask = action else { return (action, nil) }
            // Not on the delegate queue: a fast body can have many chunk callbacks queued there,
            // and the transfer would run on until they drained. Not on the caller's thread either
            // (see `control`). The caller is answered below at once; later callbacks find it ended.
            if let task = state.task {
                control.async { task.cancel() }
            }
            return (action, state.end())
        }
        switch action {
        case .failCaller(let reason): answerCaller(continuation, with: .failure(reason.error))
        case .cancelTask(let recipient, let reason): deliver(.failure(reason.error), to: recipient, continuation: continuation)
        default: break
        }
    }

    /// The task ended; the body is what ``receive(_:)-(Data)`` collected.
    func finish(response: URLResponse?, error: (any Error)?) {
        let (action, body, continuation) = state.withLock {
            state -> (ExchangeStateMachine.Action, Data, CheckedContinuation<Response, any Error>?) in
            let action = state.machine.taskCompleted()
            guard case .finish = action else { return (action, Data(), nil) }
            let body = state.body
            return (action, body, state.end())
        }
        switch action {
        case .finish(.stream):
            // The body went to the reader; only how the transfer ended is left to report.
            let outcome: Result<Response, NetworkError> =
                error.map { .failure(URLErrorMapping.map($0, host: request.host)) } ?? .success(Response(statusCode: 200, request: request))
            deliver(outcome, to: .stream, continuation: nil)
        case .finish(.caller):
            deliver(result(data: body, fileURL: nil, response: response, error: error), to: .caller, continuation: continuation)
        default:
            break
        }
    }

    /// Gives the outcome to the stream's reader or to the waiting caller; the deadline is no
    /// longer watched.
    func deliver(
        _ result: Result<Response, NetworkError>, to recipient: ExchangeStateMachine.Recipient,
        continuation: CheckedContinuation<Response, any Error>?
    ) {
        switch recipient {
        case .stream:
            DeadlineWatcher.shared.unwatch(self)
            switch result {
            case .success: stream?.finish()
            case .failure(let error): stream?.finish(throwing: error)
            }
        case .caller:
            answerCaller(continuation, with: result)
        }
    }

    private func answerCaller(_ continuation: CheckedContinuation<Response, any Error>?, with result: Result<Response, NetworkError>) {
        DeadlineWatcher.shared.unwatch(self)
        guard let continuation else { return }
        if case .success(let response) = result { reportFinalProgress(response) }
        continuation.resume(with: result.mapError { $0 as any Error })
    }

}
