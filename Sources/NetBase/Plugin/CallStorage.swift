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
    private let values: Locked<[ObjectIdentifier: any Sendable]>
    /// Ends the call from outside its task (see ``Provider/cancelAll()``).
    package let cancellation: CallCancellation
    /// Who sees the call's ``NetworkEvent``s (see ``Request/report(_:)``); empty when no one does.
    package let observers: [any NetworkEventObserver]

    /// Creates an empty store (the pipeline makes one per call).
    public init() {
        values = Locked([:])
        cancellation = CallCancellation()
        observers = []
    }

    /// Creates an empty store for a call that `cancellation` ends.
    package init(cancellation: CallCancellation, observers: [any NetworkEventObserver] = []) {
        values = Locked([:])
        self.cancellation = cancellation
        self.observers = observers
    }

    private init(values: Locked<[ObjectIdentifier: any Sendable]>, observers: [any NetworkEventObserver]) {
        self.values = values
        cancellation = CallCancellation()
        self.observers = observers
    }

    /// The same values, without the call's cancellation: for work that outlives one caller
    /// (a transfer ``DeduplicatingTransport`` shares among callers).
    package func detachedFromCancellation() -> CallStorage {
        CallStorage(values: values, observers: observers)
    }

    /// The value for `key`, or its default.
    public subscript<Key: RequestContextKey>(key: Key.Type) -> Key.Value {
        get { values.withLock { $0[ObjectIdentifier(key)] } as? Key.Value ?? Key.defaultValue }
        set { values.withLock { $0[ObjectIdentifier(key)] = newValue } }
    }
}
