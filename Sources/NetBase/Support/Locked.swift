import Foundation

/// A value guarded by a `pthread_mutex_t`, for NetKit's short critical sections.
///
/// NetKit uses this instead of `Synchronization.Mutex` because that one is built on raw futex
/// calls on Linux, which the thread sanitizer cannot see: every access it guards would be
/// reported as a race, hiding real ones. A pthread mutex costs the same uncontended and keeps
/// the sanitizer's reports meaningful.
package final class Locked<Value>: @unchecked Sendable {
    // `@unchecked Sendable` is true because `value` is only read or written between
    // `pthread_mutex_lock(mutex)` and `pthread_mutex_unlock(mutex)` in `withLock`.
    // Visible to inlined code only: `withLock` is inlined into every module (across a module
    // boundary an opaque generic call would cost a metadata lookup per lock).
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
    @usableFromInline var value: Value

    package init(_ value: Value) {
        self.value = value
        mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with exclusive access to the value.
    @inlinable @inline(__always)
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
