import Foundation

extension CallCancellation {
    /// Waits `delay`, or less when the call or the current task is cancelled first.
    /// - Returns: `false` when the wait was cut short by cancellation.
    ///
    /// The timer is a `Task.sleep` in a task of its own, cancelled as soon as the wait ends, so
    /// it never outlives a cancelled wait. Only retry waits and stub delays sleep, never the
    /// ordinary path of a request.
    package func sleep(for delay: Duration) async -> Bool {
        let elapsed = OnceValue<Bool>()
        let timer = Task {
            try? await Task.sleep(for: delay)
            elapsed.resolve(true)
        }
        defer { timer.cancel() }
        return await withCancellationHandler {
            await elapsed.value()
        } onCancel: {
            elapsed.resolve(false)
        }
    }
}
