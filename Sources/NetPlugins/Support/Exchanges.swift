import Dispatch
import Foundation
import NetCore
import Synchronization

/// Per-call bookkeeping shared by the logger and the capture through ``Request/context``: when
/// the current attempt started, and which outcome `succeed`/`failure` last reported, so `process`
/// reports only outcomes that never reached the transport (answered in `prepare`, stopped, failed
/// to build, cancelled) or that a plugin replaced (recovered).
///
/// One object per call, stored once in the context (a class reference, so reading it back is a
/// cheap class cast); afterwards only atomic loads and stores. No lock, no shared table.
final class CallTracker: Sendable {
    /// The attempt whose start time is stored.
    private let startedAttempt = Atomic<Int>(0)
    /// `DispatchTime` nanoseconds when that attempt's `prepare` ran.
    private let startNanoseconds = Atomic<UInt64>(0)
    /// The last reported outcome as `attempt × 4 + kind`.
    private let reported = Atomic<Int>(0)

    enum Kind: Int {
        case success = 1, failure, cancelled

        init(_ error: NetworkError) {
            self = error.isCancellation ? .cancelled : .failure
        }
    }

    /// Stands for "no tracker" so the context key needs no optional (casting to a class is cheap).
    static let none = CallTracker()

    func begin(attempt: Int) {
        guard startedAttempt.load(ordering: .relaxed) != attempt else { return }
        startNanoseconds.store(DispatchTime.now().uptimeNanoseconds, ordering: .relaxed)
        startedAttempt.store(attempt, ordering: .releasing)
    }

    func elapsed(attempt: Int) -> Duration? {
        guard self !== Self.none, startedAttempt.load(ordering: .acquiring) == attempt else { return nil }
        let start = startNanoseconds.load(ordering: .relaxed)
        let now = DispatchTime.now().uptimeNanoseconds
        return .nanoseconds(Int64(now >= start ? now - start : 0))
    }

    func markReported(attempt: Int, _ kind: Kind) {
        guard self !== Self.none else { return }
        reported.store(attempt * 4 + kind.rawValue, ordering: .releasing)
    }

    func wasReported(attempt: Int, _ kind: Kind) -> Bool {
        self !== Self.none && reported.load(ordering: .acquiring) == attempt * 4 + kind.rawValue
    }
}

enum CallTrackerKey: RequestContextKey {
    static var defaultValue: CallTracker { .none }
}

extension Request {
    /// Starts the clock for this attempt (once per attempt, whichever tracking plugin comes first).
    mutating func beginAttempt() {
        var tracker = context[CallTrackerKey.self]
        if tracker === CallTracker.none {
            tracker = CallTracker()
            context[CallTrackerKey.self] = tracker
        }
        tracker.begin(attempt: attempt)
    }

    /// Time since this attempt's `prepare`, when a tracking plugin ran it.
    var attemptElapsed: Duration? {
        context[CallTrackerKey.self].elapsed(attempt: attempt)
    }

    /// Notes that `succeed`/`failure` reported this attempt.
    func markReported(_ kind: CallTracker.Kind) {
        context[CallTrackerKey.self].markReported(attempt: attempt, kind)
    }

    /// Whether `result` is what `succeed`/`failure` already reported for this attempt.
    func wasReported(_ result: Result<Response, NetworkError>) -> Bool {
        let tracker = context[CallTrackerKey.self]
        switch result {
        case .success: return tracker.wasReported(attempt: attempt, .success)
        case .failure(let error): return tracker.wasReported(attempt: attempt, .init(error))
        }
    }
}
