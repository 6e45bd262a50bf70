import Foundation

/// A value guarded by a `pthread_mutex_t`, for NetKit's short critical sections.
///
/// NetKit uses this instead of `Synchronization.Mutex` because that one is built on raw futex
/// calls on Linux, which the thread sanitizer cannot see: every access it guards would be
/// reported as a race, hiding real ones. A pthread mutex costs the same uncontended and keeps
/// the sanitizer's reports meaningful.
///
/// The value and its mutex live in one heap object (a `ManagedBuffer` whose header is the value and
/// whose one element is the mutex): a `Locked` costs one allocation, not two.
package struct Locked<Value>: @unchecked Sendable {
    // `@unchecked Sendable` is true because the value is only read or written between
    // `pthread_mutex_lock` and `pthread_mutex_unlock` of the mutex stored beside it, in `withLock`.
    // Visible to inlined code only: `withLock` is inlined into every module (across a module
    // boundary an opaque generic call would cost a metadata lookup per lock).
    @usableFromInline let storage: Storage

    /// The value (header) and its mutex (the one element).
    @usableFromInline final class Storage: ManagedBuffer<Value, pthread_mutex_t> {
        deinit {
            _ = withUnsafeMutablePointerToElements { pthread_mutex_destroy($0) }
        }
    }

    package init(_ value: Value) {
        storage = unsafeDowncast(Storage.create(minimumCapacity: 1) { _ in value }, to: Storage.self)
        storage.withUnsafeMutablePointerToElements { mutex in
            mutex.initialize(to: pthread_mutex_t())
            pthread_mutex_init(mutex, nil)
        }
    }

    /// Runs `body` with exclusive access to the value.
    @inlinable @inline(__always)
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try storage.withUnsafeMutablePointers { value, mutex in
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            return try body(&value.pointee)
        }
    }
}
