import Foundation

/// Observers for the calls a task starts, on top of the provider's own: a per-call listener
/// without a provider of its own (a per-request logger, a test).
///
/// ```swift
/// try await TaskEventObservers.$current.withValue([NetworkEventHandler { print($0.kind) }]) {
///     try await provider.request(.user("ana"))
/// }
/// ```
///
/// A call reads them once, when it starts; a stream's call inherits them from the task that opened it.
public enum TaskEventObservers {
    /// The observers added to every call started by the current task. Default: none.
    @TaskLocal public static var current: [any NetworkEventObserver] = []
}
