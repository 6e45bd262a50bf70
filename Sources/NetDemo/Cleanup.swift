#if canImport(Glibc)
    import NetToolbox
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import NetCore

/// What the demo must undo before it exits, and the one way it exits: whether it finishes, fails
/// or is interrupted by a signal, the actions run exactly once and the first exit status wins.
final class Cleanup: Sendable {
    private struct State {
        var actions: [@Sendable () -> Void] = []
        var exitStatus: Int32?
    }

    private let state = Locked(State())

    /// Adds an action; actions run in reverse order of addition.
    func add(_ action: @escaping @Sendable () -> Void) {
        state.withLock { $0.actions.append(action) }
    }

    /// Whether an exit (a signal's, say) has already begun.
    var isExiting: Bool {
        state.withLock { $0.exitStatus != nil }
    }

    /// Runs the actions (unless another thread already did) and ends the process. A second caller
    /// (the main flow failing because the signal handler stopped the servers under it) waits for
    /// the first to finish and exits with the first caller's status.
    func exit(_ status: Int32) -> Never {
        let final = state.withLock { state in
            if let earlier = state.exitStatus { return earlier }
            state.exitStatus = status
            for action in state.actions.reversed() { action() }
            state.actions = []
            return status
        }
        fflush(nil)
        // `_exit`, not `exit`: the signal handler calls this from a background thread while others
        // still run, and C++ static destructors under running threads are not safe.
        _exit(final)
    }
}
