#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Synchronization

/// One request's life inside ``URLSessionTransport``: the task, the deadline timer, progress
/// polling, and a continuation resumed exactly once.
///
/// Timeouts and cancellation resume the caller at once instead of waiting for URLSession to call
/// back, so a task URLSession never completes (the Linux 401 `Basic` bug) cannot hang a request.
final class Exchange: Sendable {
    enum StopReason: Sendable {
        case cancelled
        case timedOut
    }

    private struct State {
        var continuation: CheckedContinuation<Response, any Error>?
        var task: URLSessionTask?
        var stopReason: StopReason?
        var redirectRefusal: String?
        var challengeResponse: HTTPURLResponse?
        /// A finished download is being moved into place; a stop can no longer win.
        var claimedByDownload = false
        var finished = false
    }

    let request: Request
    /// When the request must have ended.
    let deadline: ContinuousClock.Instant
    private let progress: ProgressHandler?
    private let clock = ContinuousClock()
    private let startInstant: ContinuousClock.Instant
    private let startDate = Date()
    // Every mutable field lives in this mutex.
    private let state = Locked(State())

    init(request: Request, progress: ProgressHandler?) {
        self.request = request
        self.progress = progress
        self.startInstant = clock.now
        self.deadline = startInstant + request.timeout
    }

    /// Whether someone wants progress reports.
    var reportsProgress: Bool { progress != nil }

    var continuation: CheckedContinuation<Response, any Error>? {
        get { state.withLock { $0.continuation } }
        set { state.withLock { $0.continuation = newValue } }
    }

    /// Starts `task` with its deadline, unless the request was cancelled before it could start.
    func start(_ task: URLSessionTask) {
        let alreadyStopped: StopReason? = state.withLock { state in
            if let reason = state.stopReason { return reason }
            state.task = task
            return nil
        }
        if let alreadyStopped {
            task.cancel()
            complete(with: .failure(error(for: alreadyStopped)))
            return
        }
        DeadlineWatcher.shared.watch(self)
        task.resume()
    }

    /// Ends the request now with `reason`; URLSession's later callback is ignored.
    func stop(because reason: StopReason) {
        let task: URLSessionTask? = state.withLock { state in
            guard !state.finished, !state.claimedByDownload, state.stopReason == nil else { return nil }
            state.stopReason = reason
            return state.task
        }
        guard let task else { return }
        task.cancel()
        complete(with: .failure(error(for: reason)))
    }

    /// Records that a redirect was refused by policy; the 3xx then becomes this error.
    func refuseRedirect(_ reason: String) {
        state.withLock { $0.redirectRefusal = reason }
    }

    /// Records the 401 whose authentication challenge was cancelled; it becomes the response.
    func recordChallengeResponse(_ response: HTTPURLResponse) {
        state.withLock { $0.challengeResponse = response }
    }

    func finish(data: Data?, response: URLResponse?, error: (any Error)?) {
        complete(with: result(data: data ?? Data(), fileURL: nil, response: response, error: error))
    }

    /// Handles a finished download: moves a 2xx body into place (URLSession deletes `location`
    /// when this returns); keeps any other body in memory so it never lands in the destination.
    func finishDownload(location: URL?, response: URLResponse?, error: (any Error)?) {
        guard let destination = request.download, claimForDownload() else { return }
        guard error == nil, let location, let http = response as? HTTPURLResponse else {
            complete(with: result(data: Data(), fileURL: nil, response: response, error: error))
            return
        }
        if (200...299).contains(http.statusCode) {
            do {
                let staging = DownloadFiles.temporaryURL(beside: destination.url)
                try FileManager.default.createDirectory(at: staging.deletingLastPathComponent(), withIntermediateDirectories: true)
                try FileManager.default.moveItem(at: location, to: staging)
                try DownloadFiles.moveIntoPlace(staging, to: destination.url)
                // URLSession downloads whole; a partial file another transport left is now stale.
                if destination.resumable { try? FileManager.default.removeItem(at: destination.partialFileURL) }
            } catch {
                complete(with: .failure(NetworkError.fileSystem(reason: "could not move the download to \(destination.url.path): \(error)")))
                return
            }
            complete(with: result(data: Data(), fileURL: destination.url, response: response, error: nil))
        } else {
            let body = ((try? FileHandle(forReadingFrom: location).read(upToCount: 1 << 20)) ?? nil) ?? Data()
            complete(with: result(data: body, fileURL: nil, response: response, error: nil))
        }
    }

    /// Claims the completion for a finished download, unless the request was already stopped or
    /// completed: a cancelled caller must never find its destination replaced.
    private func claimForDownload() -> Bool {
        state.withLock { state in
            guard !state.finished, state.stopReason == nil else { return false }
            state.claimedByDownload = true
            return true
        }
    }

    private func complete(with result: Result<Response, NetworkError>) {
        let continuation: CheckedContinuation<Response, any Error>? = state.withLock { state in
            guard !state.finished else { return nil }
            state.finished = true
            defer { state.continuation = nil; state.task = nil }
            return state.continuation
        }
        guard let continuation else { return }
        DeadlineWatcher.shared.unwatch(self)
        continuation.resume(with: result.mapError { $0 as any Error })
    }

    private func result(data: Data, fileURL: URL?, response: URLResponse?, error: (any Error)?) -> Result<Response, NetworkError> {
        let (stopReason, refusal, challenged) = state.withLock { ($0.stopReason, $0.redirectRefusal, $0.challengeResponse) }
        if let stopReason { return .failure(self.error(for: stopReason)) }
        var response = response
        if let error {
            guard let challenged, (error as? URLError)?.code == .cancelled else {
                return .failure(URLErrorMapping.map(error, host: request.host))
            }
            response = challenged
        }
        if let refusal { return .failure(.redirectRefused(reason: refusal)) }
        guard let http = response as? HTTPURLResponse else {
            return .failure(.invalidResponse(reason: "the response is not HTTP"))
        }
        var headers = HTTPHeaders()
        for (name, value) in http.allHeaderFields {
            headers[String(describing: name)] = String(describing: value)
        }
        if let truncation = Self.truncation(of: data, headers: headers, status: http.statusCode, method: request.method), fileURL == nil {
            return .failure(truncation)
        }
        let metrics = ResponseMetrics(
            startDate: startDate, duration: clock.now - startInstant,
            bytesSent: request.body.contentLength ?? 0,
            bytesReceived: fileURL.flatMap { try? FileManager.default.attributesOfItem(atPath: $0.path)[.size] as? NSNumber }?.int64Value
                ?? Int64(data.count)
        )
        return .success(Response(statusCode: http.statusCode, headers: headers, data: data, request: request,
                                 fileURL: fileURL, source: .network, metrics: metrics))
    }

    /// A body shorter than its `Content-Length` (when not compressed) was cut off. Redirects are
    /// exempt: URLSession drops the body of a redirect it was told not to follow.
    private static func truncation(of data: Data, headers: HTTPHeaders, status: Int, method: HTTPMethod) -> NetworkError? {
        guard method != .head, status != 204, status != 304, !(300...399).contains(status), headers["Content-Encoding"] == nil,
              let declared = headers["Content-Length"].flatMap({ Int64($0) }), Int64(data.count) < declared else { return nil }
        return .truncatedResponse(expected: declared, received: Int64(data.count))
    }

    private func error(for reason: StopReason) -> NetworkError {
        switch reason {
        case .cancelled: .cancelled
        case .timedOut: .timedOut
        }
    }

    /// Reports upload and download progress as URLSession counts it.
    func reportProgress() {
        guard let progress, let task = state.withLock({ $0.task }) else { return }
        if task.countOfBytesExpectedToSend > 0 || task.countOfBytesSent > 0 {
            progress(TransferProgress(direction: .upload, completedBytes: task.countOfBytesSent,
                                      totalBytes: task.countOfBytesExpectedToSend > 0 ? task.countOfBytesExpectedToSend : nil))
        }
        if task.countOfBytesReceived > 0 {
            progress(TransferProgress(direction: .download, completedBytes: task.countOfBytesReceived,
                                      totalBytes: task.countOfBytesExpectedToReceive > 0 ? task.countOfBytesExpectedToReceive : nil))
        }
    }
}

/// The session-wide delegate: redirects by policy and authentication challenges.
final class SessionDelegate: NSObject, URLSessionTaskDelegate, Sendable {
    let redirectPolicy: RedirectPolicy
    // Maps task identifiers to their exchange while the task runs.
    private let exchanges = Locked<[Int: Exchange]>([:])

    init(redirectPolicy: RedirectPolicy) {
        self.redirectPolicy = redirectPolicy
    }

    func register(_ task: URLSessionTask, exchange: Exchange) {
        exchanges.withLock { $0[task.taskIdentifier] = exchange }
    }

    func unregister(_ exchange: Exchange) {
        exchanges.withLock { map in
            if let key = map.first(where: { $0.value === exchange })?.key { map[key] = nil }
        }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        let (next, refusal) = redirectPolicy.decide(from: task.currentRequest ?? task.originalRequest, to: request)
        if let refusal {
            exchanges.withLock { $0[task.taskIdentifier] }?.refuseRedirect(refusal)
        }
        completionHandler(next)
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        #if !canImport(FoundationNetworking)
        if challenge.protectionSpace.authenticationMethod == NSURLAuthenticationMethodServerTrust {
            completionHandler(.performDefaultHandling, nil)
            return
        }
        #endif
        // On Linux (Swift 6.3.1) default handling of an HTTP auth challenge never completes the
        // task. NetKit sends credentials itself, so the challenge is cancelled and the 401 that
        // carried it is handed back as the response.
        if let challengeResponse = challenge.failureResponse as? HTTPURLResponse {
            exchanges.withLock { $0[task.taskIdentifier] }?.recordChallengeResponse(challengeResponse)
        }
        completionHandler(.cancelAuthenticationChallenge, nil)
    }
}

/// Maps URLSession's errors to ``NetworkError``.
enum URLErrorMapping {
    static func map(_ error: any Error, host: String) -> NetworkError {
        if let error = error as? NetworkError { return error }
        guard let urlError = error as? URLError else { return NetworkError(error) }
        switch urlError.code {
        case .cancelled: return .cancelled
        case .timedOut: return .timedOut
        case .cannotFindHost, .dnsLookupFailed: return .dnsFailure(host: host)
        case .cannotConnectToHost, .notConnectedToInternet, .internationalRoamingOff, .callIsActive, .dataNotAllowed:
            return .connectionFailed(host: host, reason: urlError.localizedDescription)
        case .networkConnectionLost: return .connectionLost(reason: urlError.localizedDescription)
        case .secureConnectionFailed, .serverCertificateHasBadDate, .serverCertificateUntrusted,
             .serverCertificateHasUnknownRoot, .serverCertificateNotYetValid, .clientCertificateRejected,
             .clientCertificateRequired:
            return .tlsFailure(host: host, reason: urlError.localizedDescription)
        case .httpTooManyRedirects, .redirectToNonExistentLocation:
            return .redirectRefused(reason: urlError.localizedDescription)
        case .badServerResponse, .cannotParseResponse, .cannotDecodeContentData, .cannotDecodeRawData, .zeroByteResource:
            return .invalidResponse(reason: urlError.localizedDescription)
        default:
            // On Linux many libcurl failures arrive as code -1 with only libcurl's text.
            let text = urlError.localizedDescription.lowercased()
            if text.contains("ssl") || text.contains("certificate") || text.contains("tls") {
                return .tlsFailure(host: host, reason: urlError.localizedDescription)
            }
            if text.contains("transfer closed with") {
                return .truncatedResponse(expected: nil, received: nil)
            }
            if text.contains("unencoding") || text.contains("decompress") {
                return .invalidResponse(reason: "the compressed body is corrupt (\(urlError.localizedDescription))")
            }
            if text.contains("connection reset") || text.contains("recv failure") || text.contains("send failure") {
                return .connectionLost(reason: urlError.localizedDescription)
            }
            return .transport(reason: "\(urlError.localizedDescription) (URLError \(urlError.code.rawValue))")
        }
    }
}
