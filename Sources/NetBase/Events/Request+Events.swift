import Foundation

extension Request {
    /// Reports `kind` to the observers of the call this request belongs to (see
    /// ``NetworkEventObserver``); does nothing, and builds nothing, when no one observes.
    ///
    /// Plugins and transports report what only they know (a cache hit, a redirect); the provider
    /// reports the rest.
    public func report(_ kind: @autoclosure () -> NetworkEvent.Kind) {
        let observers = callStorage.observers
        guard !observers.isEmpty else { return }
        let event = NetworkEvent(kind(), request: self)
        for observer in observers { observer.observe(event) }
    }

    /// Whether anyone observes this request's call.
    public var isObserved: Bool { !callStorage.observers.isEmpty }
}
