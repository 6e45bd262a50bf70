import Foundation
import NetCore

/// Waits for a task that several callers share, and stops waiting as soon as the waiting call is
/// cancelled, by its task or `Provider.cancelAll()` (throwing `CancellationError`), while the
/// shared task runs on for the others.
///
/// `await task.value` alone would keep a cancelled caller waiting until the shared work ends.
func waitCancellably<Success: Sendable>(for task: Task<Success, any Error>, in request: Request) async throws -> Success {
    let outcome = OnceValue<Result<Success, any Error>>()
    return try await request.withCancellationHandler {
        if !request.isCancelled {
            Task { outcome.resolve(await task.result) }
        }
        return await outcome.value()
    } onCancel: {
        outcome.resolve(.failure(CancellationError()))
    }.get()
}
