import Foundation

extension CallCancellation {
    /// Waits `delay`, or less when the call or the current task is cancelled first.
    /// - Returns: `false` when the wait was cut short by cancellation.
    ///
    /// The timer is a `Task.sleep` in a task of its own, cancelled as soon as the wait ends, so
    /// it never outlives a cancelled wait. Only retry waits and stub delays sleep, never the
    /// ordinary path of a request.
    package func sleep(for delay: Duration) async -> Bool {
        let wait = SleepWait()
        return await withCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                guard wait.arm(continuation) else { return }
                wait.setTimer(
                    Task {
                        try? await Task.sleep(for: delay)
                        wait.end(elapsed: true)
                    })
            }
        } onCancel: {
            wait.end(elapsed: false)
        }
    }
}

/// One sleeping caller: its continuation and its timer, ended once by whichever comes first.
private final class SleepWait: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Bool, Never>?
        var timer: Task<Void, Never>?
        var ended = false
    }

    private let state = Locked(State())

    /// Stores the continuation; `false` (having resumed it) when the wait already ended.
    func arm(_ continuation: CheckedContinuation<Bool, Never>) -> Bool {
        let ended = state.withLock { state in
            if !state.ended { state.continuation = continuation }
            return state.ended
        }
        if ended { continuation.resume(returning: false) }
        return !ended
    }

    /// Keeps the timer so a cancellation can stop it; stops it at once when the wait already ended.
    func setTimer(_ timer: Task<Void, Never>) {
        let ended = state.withLock { state in
            if !state.ended { state.timer = timer }
            return state.ended
        }
        if ended { timer.cancel() }
    }

    /// Ends the wait; later calls do nothing.
    func end(elapsed: Bool) {
        let (continuation, timer) = state.withLock { state -> (CheckedContinuation<Bool, Never>?, Task<Void, Never>?) in
            guard !state.ended else { return (nil, nil) }
            state.ended = true
            defer {
                state.continuation = nil
                state.timer = nil
            }
            return (state.continuation, state.timer)
        }
        if !elapsed { timer?.cancel() }
        continuation?.resume(returning: elapsed)
    }
}
