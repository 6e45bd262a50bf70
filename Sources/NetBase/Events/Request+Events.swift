import Foundation

extension Request {
    /// Reports `kind` to the observers of the call this request belongs to (see
    /// ``NetworkEventObserver``); does nothing, and builds nothing, when no one observes.
    ///
    /// Plugins and transports report what only they know (a cache hit, a redirect); the provider
    /// reports the rest.
    public func report(_ kind: @autoclosure () -> NetworkEvent.Kind) {
        guard callStorage.isObserved else { return }
        let observers = callStorage.observers
        guard !observers.isEmpty else { return }
        let event = NetworkEvent(kind(), request: self)
        for observer in observers { observer.observe(event) }
    }

    /// Whether anyone observes this request's call.
    public var isObserved: Bool { callStorage.isObserved }

    /// Reports the call's end, then lets go of its observers (see ``CallStorage``).
    package func reportEnd(_ result: Result<Response, NetworkError>, duration: Duration) {
        report(.callEnded(result, duration: duration))
        callStorage.endObservation()
    }
}
