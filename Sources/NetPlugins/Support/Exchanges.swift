import Foundation
import NetCore
import Synchronization

/// When the current attempt of a call started (set in `prepare` by the logger and the capture).
enum AttemptStartKey: RequestContextKey {
    static let defaultValue: ContinuousClock.Instant? = nil
}

/// Remembers which calls already had their latest attempt reported through `succeed`/`failure`,
/// so `process` reports only outcomes that never reached the transport (answered in `prepare`,
/// stopped, failed to build, cancelled) or that a plugin replaced (recovered).
///
/// One lock and one dictionary operation per hook; entries live from `succeed`/`failure` to
/// `process` of the same call.
final class ReportedOutcomes: Sendable {
    enum Kind: Sendable { case success, failure }

    private let reported = Mutex<[UUID: (attempt: Int, kind: Kind)]>([:])

    func record(_ request: Request, _ kind: Kind) {
        reported.withLock { $0[request.id] = (request.attempt, kind) }
    }

    /// Whether `result` for `request` was already reported; forgets the call either way.
    func takeWasReported(_ request: Request, result: Result<Response, NetworkError>) -> Bool {
        guard let entry = reported.withLock({ $0.removeValue(forKey: request.id) }), entry.attempt == request.attempt else {
            return false
        }
        switch (entry.kind, result) {
        case (.success, .success): return true
        case (.failure, .failure(let error)): return !error.isCancellation
        default: return false
        }
    }
}
