import Foundation

/// A handle that cancels work started with a completion handler.
public protocol Cancellable: Sendable {
    /// Cancels the work; the completion handler then receives ``NetworkError/cancelled``
    /// unless the work had already finished.
    func cancel()
    /// Whether ``cancel()`` was called.
    var isCancelled: Bool { get }
}

/// Cancels a `Task`.
struct TaskCancellable<Success: Sendable>: Cancellable {
    let task: Task<Success, Never>
    init(_ task: Task<Success, Never>) { self.task = task }
    func cancel() { task.cancel() }
    var isCancelled: Bool { task.isCancelled }
}
