import Foundation

/// Ends one call from outside its task: the way ``Provider/cancelAll()`` reaches a request.
///
/// A call owns one (in its ``CallStorage``) from its first hook to `process`. Everything that
/// waits inside the call registers a handler here and with its task (see
/// ``withCancellationHandler(operation:onCancel:isolation:)``), so cancelling the call and
/// cancelling its task end the wait the same way. Cancelling is final: the flag is set before
/// the handlers run, and a handler registered afterwards runs at once.
package final class CallCancellation: Sendable {
    private struct State {
        var cancelled = false
        var nextToken = 0
        var handlers: [Int: @Sendable () -> Void] = [:]
    }

    private let state = Locked(State())

    /// Creates a call that is not cancelled.
    package init() {}

    /// Whether ``cancel()`` was called.
    package var isCancelled: Bool { state.withLock { $0.cancelled } }

    /// Marks the call cancelled and runs every registered handler once, outside the lock.
    package func cancel() {
        let handlers = state.withLock { state -> [@Sendable () -> Void] in
            guard !state.cancelled else { return [] }
            state.cancelled = true
            defer { state.handlers = [:] }
            return Array(state.handlers.values)
        }
        for handler in handlers { handler() }
    }

    /// Registers `handler` until ``unregister(_:)``; when the call is already cancelled it runs
    /// `handler` at once and returns `nil`.
    package func register(_ handler: @escaping @Sendable () -> Void) -> Int? {
        let token = state.withLock { state -> Int? in
            guard !state.cancelled else { return nil }
            state.nextToken += 1
            state.handlers[state.nextToken] = handler
            return state.nextToken
        }
        if token == nil { handler() }
        return token
    }

    /// Forgets a handler that has not run.
    package func unregister(_ token: Int?) {
        guard let token else { return }
        _ = state.withLock { $0.handlers.removeValue(forKey: token) }
    }

    /// Runs `operation`; `onCancel` runs once when the call or the current task is cancelled
    /// meanwhile (at once when either already is). `onCancel` may run on any thread, concurrently
    /// with `operation`.
    package func withCancellationHandler<T>(
        operation: () async throws -> T, onCancel: @escaping @Sendable () -> Void,
        isolation: isolated (any Actor)? = #isolation
    ) async rethrows -> T {
        let once = OnceHandler(onCancel)
        let token = register { once.run() }
        defer { unregister(token) }
        return try await withTaskCancellationHandler(operation: operation, onCancel: { once.run() }, isolation: isolation)
    }
}

/// A handler both the call and the task may trigger, run the first time only.
private final class OnceHandler: Sendable {
    private let handler: Locked<(@Sendable () -> Void)?>

    init(_ handler: @escaping @Sendable () -> Void) { self.handler = Locked(handler) }

    func run() {
        let handler = self.handler.withLock { handler in
            defer { handler = nil }
            return handler
        }
        handler?()
    }
}
