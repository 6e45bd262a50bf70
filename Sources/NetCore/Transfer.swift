import NetBase

/// Progress and completion of a transfer started with ``Provider/transfer(_:)``.
public enum TransferEvent: Sendable {
    /// Upload or download progress.
    case progress(TransferProgress)
    /// The final result; the last event.
    case finished(Result<Response, NetworkError>)
}

/// A running upload or download: its progress events and its final response.
public struct Transfer: Sendable {
    /// Progress events, then `.finished`; the stream ends after it. Keeps the newest 64 events
    /// when the consumer is slow.
    public let events: AsyncStream<TransferEvent>
    let task: Task<Result<Response, NetworkError>, Never>

    /// Waits for the final response.
    /// - Throws: ``NetworkError``.
    public func response() async throws(NetworkError) -> Response {
        let task = task
        return try await withTaskCancellationHandler {
            await task.value
        } onCancel: {
            task.cancel()
        }.get()
    }

    /// Cancels the transfer.
    public func cancel() { task.cancel() }
}
