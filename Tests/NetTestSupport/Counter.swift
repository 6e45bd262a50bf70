import NetToolbox
import NetCore

/// Counts calls from concurrent tasks.
public final class Counter: Sendable {
    private let value = Locked(0)

    /// A counter at zero.
    public init() {}

    /// Adds one and returns the new count.
    @discardableResult public func increment() -> Int {
        value.withLock {
            $0 += 1
            return $0
        }
    }

    /// The count now.
    public var count: Int { value.withLock { $0 } }
}
