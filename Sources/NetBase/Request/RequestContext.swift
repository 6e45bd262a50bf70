import Foundation

/// Typed values that plugins attach to a request and read in later hooks.
public struct RequestContext: Sendable {
    // Perf: the subscript is inlinable so that plugins' reads specialise to their key's type
    // (unspecialised, each read instantiated generic metadata at run time, ~150 ns); Benchmarks
    // row "Cache hits, sequential", where CachePlugin reads its state on every hit.
    @usableFromInline var values: [ObjectIdentifier: any Sendable] = [:]

    /// Creates an empty context.
    public init() {}

    /// The value for `key`, or its default.
    @inlinable
    public subscript<Key: RequestContextKey>(key: Key.Type) -> Key.Value {
        get { values[ObjectIdentifier(key)] as? Key.Value ?? Key.defaultValue }
        set { values[ObjectIdentifier(key)] = newValue }
    }
}

/// A key for a value in ``RequestContext``.
///
/// ```swift
/// enum StartTimeKey: RequestContextKey { static let defaultValue: ContinuousClock.Instant? = nil }
/// request.context[StartTimeKey.self] = .now
/// ```
public protocol RequestContextKey {
    /// The stored value's type.
    associatedtype Value: Sendable
    /// The value read when none was set.
    static var defaultValue: Value { get }
}
