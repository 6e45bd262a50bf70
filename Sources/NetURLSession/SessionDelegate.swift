#if canImport(FoundationNetworking)
    import NetToolbox
    import FoundationNetworking
#endif
import Foundation
import NetBase

/// The session-wide delegate: refuses redirects (the transport follows them itself, hop by hop)
/// and answers authentication challenges.
final class SessionDelegate: NSObject, URLSessionDataDelegate, Sendable {
    // Maps task identifiers to their exchange while the task runs.
    private let exchanges = Locked<[Int: Exchange]>([:])

    func register(_ task: URLSessionTask, exchange: Exchange) {
        exchanges.withLock { $0[task.taskIdentifier] = exchange }
    }

    func unregister(_ exchange: Exchange) {
        exchanges.withLock { map in
            if let key = map.first(where: { $0.value === exchange })?.key { map[key] = nil }
        }
    }

    /// WebSocket tasks being opened (they have no exchange), by task identifier, with the 401
    /// an authentication challenge carried, once one did.
    private let webSocketOpenings = Locked<[Int: WebSocketChallenge]>([:])

    /// The answer an authentication challenge carried for a WebSocket task.
    struct WebSocketChallenge: Sendable {
        var response: HTTPURLResponse?
    }

    /// Watches `task`'s authentication challenges while it opens.
    func registerWebSocket(_ task: URLSessionTask) {
        webSocketOpenings.withLock { $0[task.taskIdentifier] = WebSocketChallenge() }
    }

    /// Stops watching `task`; returns the 401 its challenge carried, if one came.
    func unregisterWebSocket(_ task: URLSessionTask) -> HTTPURLResponse? {
        webSocketOpenings.withLock { $0.removeValue(forKey: task.taskIdentifier)?.response }
    }

    private func exchange(for task: URLSessionTask) -> Exchange? {
        exchanges.withLock { $0[task.taskIdentifier] }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let exchange = exchange(for: dataTask)
        let proceed = exchange?.receive(response) ?? true
        completionHandler(proceed ? .allow : .cancel)
        if proceed { exchange?.deliverHeadIfStreaming(response) }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        exchange(for: dataTask)?.receive(data)
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64, totalBytesSent: Int64,
        totalBytesExpectedToSend: Int64
    ) {
        exchange(for: task)?.didSend(total: totalBytesSent, expected: totalBytesExpectedToSend)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        // Downloads finish in their completion handler (a download delegate would write twice).
        guard let exchange = exchange(for: task), exchange.request.download == nil else { return }
        unregister(exchange)
        exchange.finish(response: task.response, error: error)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didFinishCollecting metrics: URLSessionTaskMetrics) {
        guard let collected = CollectedMetrics(metrics) else { return }
        exchange(for: task)?.state.withLock { $0.collected = collected }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        // The 3xx comes back as the response; RedirectFollower decides, with the same rules as
        // every transport, and sends the next hop as a new task (307/308 bodies included).
        completionHandler(nil)
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
            webSocketOpenings.withLock { openings in
                openings[task.taskIdentifier]?.response = challengeResponse
            }
        }
        completionHandler(.cancelAuthenticationChallenge, nil)
    }
}
