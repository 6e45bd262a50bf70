#if canImport(FoundationNetworking)
    import NetTransportSupport
    import NetToolbox
    import FoundationNetworking
#endif
import Foundation
import NetBase

/// What URLSession reports while a task runs: the head, body bytes, upload counts.
extension Exchange {
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
        var delivered = false
        handle({ state in
            let action = state.machine.streamedHeadReceived()
            if case .deliverHead = action {
                state.lastActivity = .now
                delivered = true
            }
            return action
        }) { _ in .success(self.head(of: http)) }
        if delivered { stream.onCancel { [weak self] in self?.stop(because: .cancelled) } }
    }

    /// Body bytes arrived; past the size limit the task is stopped. Never paused: FoundationNetworking
    /// would send the request again on resume. It may read ahead of these callbacks; the limit
    /// applies as they arrive.
    func receive(_ data: Data) {
        let limit = request.limits.maxBodyBytes
        var forward = false
        handle { state in
            let action = state.machine.dataReceived(data, limit: limit)
            if case .forwardToStream = action {
                state.lastActivity = .now
                forward = true
            }
            return action
        }
        if forward, let stream { streamBody(data, into: stream) }
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
    static let minimumUnpausedBacklog = 64 << 20

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
}
