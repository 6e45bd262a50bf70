import NetToolbox
import Foundation

/// Values the hooks of one call share: the same store for every hook and every attempt of a
/// call, writable from hooks that receive the request by value (`succeed`, `failure`,
/// `didReceive`, `process`).
///
/// ```swift
/// enum RefreshedKey: RequestContextKey { static let defaultValue = false }
/// // in failure(_:for:):
/// request.callStorage[RefreshedKey.self] = true
/// // in a later hook of the same call:
/// if request.callStorage[RefreshedKey.self] { ... }
/// ```
///
/// Unlike ``RequestContext`` (a value that `prepare` changes and later attempts inherit), this
/// is a reference: a write is seen at once by every later hook of the call.
public final class CallStorage: Sendable {
    /// The values. Behind `Locked` (a pthread mutex, which ThreadSanitizer models) rather than a
    /// lazily published table or a `Synchronization.Mutex`: both saved the lock's allocation, and
    /// both drew ThreadSanitizer reports when two first writers raced.
    private let values = Locked<[ObjectIdentifier: any Sendable]>([:])
    /// Who sees the call's ``NetworkEvent``s (see ``Request/report(_:)``); `nil` when no one
    /// does. Emptied by ``endObservation()``: each event holds its request, and so this store, so an observer
    /// that keeps events would otherwise keep itself alive through them.
    private let observerList: Locked<[any NetworkEventObserver]>?

    /// The call's observers now (none once the call has ended).
    package var observers: [any NetworkEventObserver] { observerList?.withLock { $0 } ?? [] }

    /// Whether the call had observers when it started (read without a lock).
    package var isObserved: Bool { observerList != nil }

    /// Creates an empty store (the pipeline makes one per call).
    package init() {
        observerList = nil
    }

    /// Creates an empty store for a call that `observers` watch.
    package init(observers: [any NetworkEventObserver]) {
        observerList = observers.isEmpty ? nil : Locked(observers)
    }

    /// Forgets the observers once the call has reported its end: later reports go nowhere.
    package func endObservation() {
        observerList?.withLock { $0 = [] }
    }

    /// The value for `key`, or its default.
    public subscript<Key: RequestContextKey>(key: Key.Type) -> Key.Value {
        get { values.withLock { $0[ObjectIdentifier(key)] } as? Key.Value ?? Key.defaultValue }
        set { values.withLock { $0[ObjectIdentifier(key)] = newValue } }
    }
}
