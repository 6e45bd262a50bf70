import Foundation
import NetCore

/// Waits for a task that several callers share, and stops waiting as soon as the waiting call is
/// cancelled, by its task or `Provider.cancelAll()` (throwing `CancellationError`), while the
/// shared task runs on for the others.
///
/// `await task.value` alone would keep a cancelled caller waiting until the shared work ends.
func waitCancellably<Success: Sendable>(for task: Task<Success, any Error>, in request: Request) async throws -> Success {
    let waiter = Waiter<Success>()
    return try await request.withCancellationHandler {
        try await withCheckedThrowingContinuation { continuation in
            waiter.set(continuation)
            if request.isCancelled {
                waiter.resume(with: .failure(CancellationError()))
                return
            }
            Task {
                let result = await task.result
                waiter.resume(with: result)
            }
        }
    } onCancel: {
        waiter.resume(with: .failure(CancellationError()))
    }
}

/// A continuation resumed at most once, by whichever comes first.
private final class Waiter<Success: Sendable>: Sendable {
    private let continuation = Locked<CheckedContinuation<Success, any Error>?>(nil)

    func set(_ continuation: CheckedContinuation<Success, any Error>) {
        self.continuation.withLock { $0 = continuation }
    }

    func resume(with result: Result<Success, any Error>) {
        continuation.withLock { $0.take() }?.resume(with: result)
    }
}
