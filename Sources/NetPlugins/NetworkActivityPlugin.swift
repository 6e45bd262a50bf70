import NetToolbox
import Foundation
import NetCore

/// Tells when a call starts and ends, to drive a network-activity indicator or a spinner
/// (Moya's plugin of the same name).
///
/// `.began` comes once per call, before its first attempt is sent; `.ended` once, after its
/// last attempt, whatever the outcome (success, error, cancellation, a retry's final result).
/// Retries do not repeat them. A call a plugin before this one answers in `prepare` (a cache hit)
/// sends nothing and reports nothing.
///
/// ```swift
/// let activity = NetworkActivityPlugin { change, target in
///     print(change == .began ? "loading \(target.path)" : "done \(target.path)")
/// }
/// let provider = Provider<GitHub>(plugins: [activity])
/// ```
///
/// The closure runs on whatever thread the call runs on; hop to the main actor yourself to
/// touch UI.
public struct NetworkActivityPlugin: Plugin {
    /// A change of a call's activity.
    public enum Change: Sendable, Hashable {
        /// The call is about to send its first attempt.
        case began
        /// The call has its final result.
        case ended
    }

    private let onChange: @Sendable (Change, any TargetType) -> Void
    /// Calls that began and have not ended, by call identifier.
    private let running = Locked(Set<UUID>())

    /// Creates the plugin.
    /// - Parameter networkActivityClosure: Called with `.began` and `.ended` once per call and
    ///   the call's target (the wrapped target for an ``/NetCore/AnyTarget``).
    public init(networkActivityClosure: @escaping @Sendable (Change, any TargetType) -> Void) {
        onChange = networkActivityClosure
    }

    public func prepare(_ request: inout Request) async throws -> PrepareAction {
        if running.withLock({ $0.insert(request.id).inserted }) { onChange(.began, request.originalTarget) }
        return .proceed
    }

    public func process(_ result: Result<Response, NetworkError>, for request: Request) async -> Result<Response, NetworkError> {
        if running.withLock({ $0.remove(request.id) != nil }) { onChange(.ended, request.originalTarget) }
        return result
    }
}
