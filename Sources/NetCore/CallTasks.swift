import NetToolbox
import NetBase

/// A task ``Provider/cancelAll()`` can cancel, whatever it returns.
protocol CancellableTask: Sendable {
    /// Cancels the task (Swift task cancellation: its cancellation handlers run, `Task.sleep` ends).
    func cancel()
}

extension Task: CancellableTask {}

/// The tasks of one provider's calls in flight: every call runs in a task of its own, so
/// ``Provider/cancelAll()`` is plain Swift task cancellation of those tasks, and the caller's
/// task (which only awaits the call's) is never cancelled by it.
///
/// `request(_:)` starts its call with `Task.immediate`: the call runs on the caller's thread up
/// to its first suspension (a cache hit never leaves it), and is registered once
/// `Task.immediate` returns (a caller whose task is already cancelled runs the call in its own
/// task: it ends as cancelled at once). A `cancelAll()` that comes before that moment marks the reserved
/// slot, and the task is cancelled as it registers, so no call that started before a
/// `cancelAll()` escapes it. The other entry points start a plain `Task` while holding the lock,
/// so it is registered before it can end.
final class CallTasks: Sendable {
    private enum Slot {
        /// Reserved before the task exists; `cancelled` when a `cancelAll()` came meanwhile.
        case starting(cancelled: Bool)
        case running(any CancellableTask)
    }

    private struct State {
        var next = 0
        var slots: [Int: Slot] = [:]
    }

    private let state = Locked(State())
    /// The transport's own executor, if it has one (``ExecutorOwningTransport``).
    private let transportExecutor: (any TaskExecutor)?

    /// Calls for a provider whose transport runs tasks on `transportExecutor` (or `nil`).
    init(transportExecutor: (any TaskExecutor)? = nil) {
        self.transportExecutor = transportExecutor
    }

    /// The transport's executor when the calling task prefers it: a call's task does not inherit
    /// its caller's executor preference (unstructured tasks never do), so it is passed on.
    private func callersPreference() -> (any TaskExecutor)? {
        guard let transportExecutor else { return nil }
        let current = withUnsafeCurrentTask { $0?.unownedTaskExecutor }
        return current == transportExecutor.asUnownedTaskExecutor() ? transportExecutor : nil
    }

    /// Runs `body` as a call in a task of its own, started at once on the current thread (see
    /// the type's notes), and returns its result. Cancelling the awaiting task cancels the call.
    func run<T: Sendable>(_ body: sending @escaping () async -> T) async -> T {
        // A caller cancelled already: its own task is as cancelled as the call's would be.
        if Task.isCancelled { return await body() }
        let token = state.withLock { state in
            state.next += 1
            state.slots[state.next] = .starting(cancelled: false)
            return state.next
        }
        let task = Self.startImmediately(body, preferring: callersPreference())
        let cancelledMeanwhile = state.withLock { state -> Bool in
            if case .starting(cancelled: true)? = state.slots[token] {
                state.slots[token] = nil
                return true
            }
            state.slots[token] = .running(task)
            return false
        }
        if cancelledMeanwhile { task.cancel() }
        let result = await withTaskCancellationHandler {
            await task.value
        } onCancel: {
            task.cancel()
        }
        remove(token)
        return result
    }

    /// `Task.immediate` where the standard library has it (Swift 6.2: Linux, and Apple systems
    /// from their 26 releases), else a plain `Task`; the reserved slot keeps `cancelAll()` right
    /// either way.
    private static func startImmediately<T: Sendable>(
        _ body: sending @escaping () async -> T, preferring executor: (any TaskExecutor)?
    ) -> Task<T, Never> {
        #if compiler(>=6.2)
            if #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) {
                return Task.immediate(executorPreference: executor, operation: body)
            }
        #endif
        return Task(executorPreference: executor, operation: body)
    }

    /// Starts `body` as a call in an unstructured `Task`, registered before this returns and
    /// until `body` ends.
    func start<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> Task<T, Never> {
        state.withLock { state in
            state.next += 1
            let token = state.next
            // Made under the lock: the task cannot unregister itself before it is registered.
            let task = Task(executorPreference: callersPreference()) { [self] in
                defer { remove(token) }
                return await body()
            }
            state.slots[token] = .running(task)
            return task
        }
    }

    /// Cancels every call registered now; the cancellation handlers run after the lock is released.
    func cancelAll() {
        let running = state.withLock { state -> [any CancellableTask] in
            var running: [any CancellableTask] = []
            for (token, slot) in state.slots {
                switch slot {
                case .running(let task): running.append(task)
                case .starting: state.slots[token] = .starting(cancelled: true)
                }
            }
            return running
        }
        for task in running { task.cancel() }
    }

    /// How many calls are registered.
    var count: Int { state.withLock { $0.slots.count } }

    private func remove(_ token: Int) {
        _ = state.withLock { $0.slots.removeValue(forKey: token) }
    }
}
