#if canImport(CCurl)
    import NetBase
    import CCurl
    import Foundation
    import Synchronization

    /// Identifies a job for cancellation; `cancelled` is set before the cancel command is queued, so
    /// a job that reaches the loop after its cancellation never starts.
    final class CurlJobToken: Sendable {
        private let cancelled = Atomic<Bool>(false)

        func markCancelled() { cancelled.store(true, ordering: .releasing) }
        var isCancelled: Bool { cancelled.load(ordering: .acquiring) }
    }
#endif
