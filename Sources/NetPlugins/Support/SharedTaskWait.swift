import NetToolbox
import Foundation
import NetCore

/// Waits for a task that several callers share, and stops waiting as soon as the waiting task is
/// cancelled (by its caller or `Provider.cancelAll()`, which cancels the call's task), throwing
/// `CancellationError`, while the shared task runs on for the others.
///
/// `await task.value` alone would keep a cancelled caller waiting until the shared work ends.
func waitCancellably<Success: Sendable>(for task: Task<Success, any Error>) async throws -> Success {
    let outcome = OnceValue<Result<Success, any Error>>()
    return try await withTaskCancellationHandler {
        // Already cancelled: the handler below has resolved the outcome before this runs.
        if !Task.isCancelled {
            Task { outcome.resolve(await task.result) }
        }
        return await outcome.value()
    } onCancel: {
        outcome.resolve(.failure(CancellationError()))
    }.get()
}
