import Foundation

extension Request {
    /// Whether the call this request belongs to was cancelled: its task, the caller's
    /// ``Cancellable`` or ``Provider/cancelAll()``. Transports check it before starting work.
    public var isCancelled: Bool { Task.isCancelled || callStorage.cancellation.isCancelled }

    /// Runs `operation`; `onCancel` runs once when the call is cancelled meanwhile, by its task
    /// or by ``Provider/cancelAll()`` (at once when it already is).
    ///
    /// Transports wait inside this instead of `withTaskCancellationHandler`: ``Provider/cancelAll()``
    /// ends calls without cancelling the tasks awaiting them, so a wait that only watches its task
    /// would miss it. `onCancel` may run on any thread, concurrently with `operation`.
    public func withCancellationHandler<T>(
        operation: () async throws -> T, onCancel: @escaping @Sendable () -> Void,
        isolation: isolated (any Actor)? = #isolation
    ) async rethrows -> T {
        try await callStorage.cancellation.withCancellationHandler(operation: operation, onCancel: onCancel, isolation: isolation)
    }
}
