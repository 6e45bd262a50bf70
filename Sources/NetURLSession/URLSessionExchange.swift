#if canImport(FoundationNetworking)
    import NetBase
    import FoundationNetworking
#endif
import Foundation

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
    private let stream: ResponseBodySink?
    private let progress: ProgressHandler?
    private let clock = ContinuousClock()
    private let startInstant: ContinuousClock.Instant
    private let startDate = Date()
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

    /// Records the 401 whose authentication challenge was cancelled; it becomes the response.
    func recordChallengeResponse(_ response: HTTPURLResponse) {
        state.withLock { $0.challengeResponse = response }
    }

    /// The response head arrived: checks its framing and announced size; false stops the task.
    func receive(_ response: URLResponse) -> Bool {
        // An interim head (100 Continue, 103 Early Hints) is not the response: FoundationNetworking
        // hands it over like a final one, and the final head follows on the same transfer.
        if let http = response as? HTTPURLResponse, (100..<200).contains(http.statusCode) { return true }
        // FoundationNetworking starts a resumed data task over (Apple documents the same for
        // data tasks): the request goes out again and a second head arrives. Its body would
        // repeat what was delivered, so the exchange ends here instead.
        let heads = state.withLock { state -> Int in
            state.heads += 1
            return state.heads
        }
        guard heads == 1 else {
            stop(because: .failed(.transport(reason: Self.restartedReason)))
            return false
        }
        guard let http = response as? HTTPURLResponse else { return true }
        let declared = http.value(forHTTPHeaderField: "Content-Length")
        guard let declared else { return true }
        switch ResponseIntegrity.contentLength([declared]) {
        case .failure(let error):
            stop(because: .failed(error))
            return false
        case .success(let length):
            state.withLock { $0.downloadTotal = length }
            if stream != nil, StatusRules.isSuccess(http.statusCode) { return true }
            let bodyless = StatusRules.hasNoBody(statusCode: http.statusCode, method: request.method.rawValue)
            if !bodyless, let limit = request.limits.maxBodyBytes, length > limit {
                stop(because: .failed(.responseTooLarge(limit: limit)))
                return false
            }
            return true
        }
    }

    /// For a stream: hands the 2xx head to the caller now; the body will follow in the sink.
    func deliverHeadIfStreaming(_ response: URLResponse) {
        guard let stream, let http = response as? HTTPURLResponse, StatusRules.isSuccess(http.statusCode) else { return }
        let continuation = state.withLock { state -> CheckedContinuation<Response, any Error>? in
            guard case .deliverHead = state.machine.streamedHeadReceived() else { return nil }
            state.lastActivity = .now
            defer { state.continuation = nil }
            return state.continuation
        }
        guard let continuation else { return }
        continuation.resume(returning: head(of: http))
        stream.onCancel { [weak self] in self?.stop(because: .cancelled) }
    }

    /// Body bytes arrived; past the size limit the task is stopped.
    func receive(_ data: Data) {
        let limit = request.limits.maxBodyBytes
        let (action, tooLarge) = state.withLock { state -> (ExchangeStateMachine.Action, Bool) in
            let action = state.machine.dataReceived()
            switch action {
            case .bufferBody:
                if let limit, Int64(state.body.count + data.count) > limit { return (action, true) }
                state.body.append(data)
            case .forwardToStream:
                state.lastActivity = .now
            default:
                break
            }
            return (action, false)
        }
        switch action {
        case .forwardToStream:
            if let stream { streamBody(data, into: stream) }
        case .bufferBody:
            // Never paused: FoundationNetworking would send the request again on resume. It may
            // read ahead of these callbacks; the limit applies as they arrive.
            if tooLarge, let limit { stop(because: .failed(.responseTooLarge(limit: limit))) }
        default:
            break
        }
    }

    /// Passes streamed bytes on. A data task is never suspended for a slow reader: resumed,
    /// FoundationNetworking starts it over (the request is sent again; Apple documents the same
    /// for data tasks), and a suspend racing its own work queue aborts the process inside
    /// FoundationNetworking. A reader that falls too far behind ends the stream instead.
    private func streamBody(_ data: Data, into stream: ResponseBodySink) {
        stream.yield(data)
        let limit = max(stream.options.bufferBytes, Self.minimumUnpausedBacklog)
        if stream.bufferedBytes > limit {
            stop(because: .failed(.transport(reason: Self.readerBehindReason(limit))))
        }
    }

    /// How far a reader may fall behind at least before the stream ends (the sink holds it).
    private static let minimumUnpausedBacklog = 64 << 20

    private static let restartedReason =
        "URLSession started the request over while it ran, so the body would repeat; nothing more was delivered. Use CurlTransport (the Linux default)"

    private static func readerBehindReason(_ limit: Int) -> String {
        "the stream's reader fell more than \(limit) bytes behind, and URLSessionTransport cannot pause a transfer (a resumed data task starts over); read faster, raise StreamOptions.bufferBytes, or use CurlTransport (the Linux default), which pauses"
    }

    /// Upload bytes were sent.
    func didSend(total: Int64, expected: Int64) {
        state.withLock { state in
            state.uploaded = total
            state.uploadTotal = expected > 0 ? expected : nil
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

    func result(data: Data, fileURL: URL?, response: URLResponse?, error: (any Error)?) -> Result<Response, NetworkError> {
        let (stopReason, challenged) = state.withLock { ($0.machine.stopReason, $0.challengeResponse) }
        if let stopReason { return .failure(stopReason.error) }
        var response = response
        if let error {
            guard let challenged, (error as? URLError)?.code == .cancelled else {
                return .failure(URLErrorMapping.map(error, host: request.host))
            }
            response = challenged
        }
        guard let http = response as? HTTPURLResponse else {
            return .failure(.invalidResponse(reason: "the response is not HTTP"))
        }
        let headers = Self.headers(of: http)
        if let truncation = Self.truncation(of: data, headers: headers, status: http.statusCode, method: request.method), fileURL == nil {
            return .failure(truncation)
        }
        let metrics = ResponseMetrics(
            startDate: startDate, duration: clock.now - startInstant,
            bytesSent: request.body.contentLength ?? 0,
            bytesReceived: fileURL.flatMap { try? FileManager.default.attributesOfItem(atPath: $0.path)[.size] as? NSNumber }?.int64Value
                ?? Int64(data.count)
        )
        return .success(
            Response(
                statusCode: http.statusCode, headers: headers, data: data, request: request,
                fileURL: fileURL, source: .network, metrics: metrics))
    }

    private static func headers(of http: HTTPURLResponse) -> HTTPHeaders {
        var headers = HTTPHeaders()
        for (name, value) in http.allHeaderFields {
            headers[String(describing: name)] = String(describing: value)
        }
        return headers
    }

    /// The head of a streamed response: status, headers, no body.
    private func head(of http: HTTPURLResponse) -> Response {
        let metrics = ResponseMetrics(
            startDate: startDate, duration: clock.now - startInstant,
            bytesSent: request.body.contentLength ?? 0, bytesReceived: 0)
        return Response(
            statusCode: http.statusCode, headers: Self.headers(of: http), data: Data(), request: request,
            source: .network, metrics: metrics)
    }

    /// A body shorter than its `Content-Length` (when not compressed) was cut off. Redirects are
    /// exempt: URLSession drops the body of a redirect it was told not to follow.
    private static func truncation(of data: Data, headers: HTTPHeaders, status: Int, method: HTTPMethod) -> NetworkError? {
        guard method != .head, status != 204, status != 304, !(300...399).contains(status), headers["Content-Encoding"] == nil,
            let declared = headers["Content-Length"].flatMap({ Int64($0) }), Int64(data.count) < declared
        else { return nil }
        return .truncatedResponse(expected: declared, received: Int64(data.count))
    }

    /// Reports upload and download progress from the delegate's byte counts (the task's own
    /// counters stay 0 on Linux).
    func reportProgress() {
        guard let progress else { return }
        let (uploaded, uploadTotal, received, downloadTotal, task) = state.withLock {
            ($0.uploaded, $0.uploadTotal, Int64($0.body.count), $0.downloadTotal, $0.task)
        }
        if uploaded > 0 {
            progress(TransferProgress(direction: .upload, completedBytes: uploaded, totalBytes: uploadTotal))
        }
        // Downloads to disk are counted by URLSession itself (no data callbacks for them).
        let downloaded = request.download == nil ? received : task?.countOfBytesReceived ?? 0
        if downloaded > 0 {
            progress(TransferProgress(direction: .download, completedBytes: downloaded, totalBytes: downloadTotal))
        }
    }

    /// The last progress events: completed equals total in each direction that moved bytes.
    private func reportFinalProgress(_ response: Response) {
        guard let progress else { return }
        CapabilityCheck.finalEvents(
            sent: request.body.contentLength ?? 0, received: response.metrics?.bytesReceived ?? Int64(response.data.count), to: progress)
    }
}
