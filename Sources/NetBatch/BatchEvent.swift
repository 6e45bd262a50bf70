import NetCore

/// Progress of a running batch.
///
/// Item events come from the items' own tasks, so events of different items interleave; for one
/// item, `itemStarted` always comes before its `itemFinished`. ``finished(_:)`` is the last event.
public enum BatchEvent: Sendable {
    /// A round began with `itemCount` items (round 1 is every item; later rounds, with
    /// ``RetryTiming/afterBatch``, the failed ones).
    case roundStarted(round: Int, itemCount: Int)
    /// Item `index` started its attempt number `attempt` (1-based, counted across rounds).
    case itemStarted(index: Int, attempt: Int)
    /// Item `index` finished attempt number `attempt` with `result`.
    case itemFinished(index: Int, attempt: Int, result: Result<Response, NetworkError>)
    /// Item `index` failed and will be sent again after `delay` in its slot
    /// (``RetryTiming/immediately`` and ``RetryTiming/backoff(initial:multiplier:max:)``).
    case itemWillRetry(index: Int, nextAttempt: Int, delay: Duration)
    /// The batch ended; the last event.
    case finished(BatchSummary)
}

/// A batch started with `BatchManager.start(_:)`: its progress events and its result.
package struct BatchRun<Target: TargetType>: Sendable {
    /// Every event of the batch; the stream ends after ``BatchEvent/finished(_:)``. Unconsumed
    /// events are buffered.
    package let events: AsyncStream<BatchEvent>
    let task: Task<BatchResult<Target>, Never>

    /// Waits for the batch to end. Cancelling the waiting task cancels the batch.
    package func result() async -> BatchResult<Target> {
        await withTaskCancellationHandler {
            await task.value
        } onCancel: {
            task.cancel()
        }
    }

    /// Cancels every in-flight and pending item.
    package func cancel() {
        task.cancel()
    }
}
