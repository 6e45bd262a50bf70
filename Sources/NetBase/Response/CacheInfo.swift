import Foundation

/// Details of a response answered from a cache.
public struct CacheInfo: Sendable, Hashable {
    /// How old the stored entry is.
    public var age: Duration
    /// Whether the entry was past its expiry and served anyway (for example while offline).
    public var isStale: Bool

    /// Creates cache details.
    package init(age: Duration, isStale: Bool) {
        self.age = age
        self.isStale = isStale
    }
}
