import Foundation

/// Sees every ``NetworkEvent`` of a provider's calls and changes nothing.
///
/// Register one with ``ProviderConfiguration/eventObservers``, or make a plugin conform: a
/// ``Plugin`` that is also an observer is registered by the provider that runs it.
///
/// ```swift
/// struct Timings: NetworkEventObserver {
///     func observe(_ event: NetworkEvent) {
///         if case .callEnded(_, let duration) = event.kind { print(event.request.target, duration) }
///     }
/// }
/// configuration.eventObservers = [Timings()]
/// ```
///
/// `observe` is called synchronously on the task that runs the call, in event order: keep it
/// short (hand slow work to your own task). It cannot change a result; with no observer, no
/// event is even made.
public protocol NetworkEventObserver: Sendable {
    /// Called once per event.
    func observe(_ event: NetworkEvent)
}

/// A ``NetworkEventObserver`` made of a closure.
///
/// ```swift
/// configuration.eventObservers = [NetworkEventHandler { event in print(event.kind) }]
/// ```
public struct NetworkEventHandler: NetworkEventObserver {
    private let handler: @Sendable (NetworkEvent) -> Void

    /// Creates an observer that calls `handler` for every event.
    public init(_ handler: @escaping @Sendable (NetworkEvent) -> Void) {
        self.handler = handler
    }

    /// Calls the closure.
    public func observe(_ event: NetworkEvent) {
        handler(event)
    }
}
