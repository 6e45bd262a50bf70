import Foundation

/// A step in every request's path. Implement only the hooks you need: each has a default that
/// changes nothing.
///
/// A ``Provider`` calls its plugins in the order given. A hook left at its default costs nothing
/// after a provider's first call: the provider notices it is the default (it changes nothing) and
/// stops calling it; a hook a plugin implements is always called.
///
/// 1. ``prepare(_:)`` in order, each seeing the previous ones' changes. The first plugin to
///    answer ``PrepareAction/respond(_:)`` ends the request without the transport: later plugins'
///    `prepare`, `willSend`, `succeed` and `failure` are skipped and ``process(_:for:)`` runs.
///    A thrown error fails the request the same way.
/// 2. ``willSend(_:)`` on every plugin with the final request. If any answers
///    ``SendAction/stop(reason:)``, nothing is sent and the result is
///    ``NetworkError/stopped(plugin:reason:)`` (the first stopping plugin is named).
/// 3. The transport sends; the target's ``Validation`` turns an unaccepted status into
///    ``NetworkError/unacceptableStatus(_:)``.
/// 4. ``succeed(_:for:)`` or ``failure(_:for:)`` on every plugin, in order. The first answer that
///    is not `.proceed` decides: a `.retry` from an earlier plugin wins over a `.recover` from a
///    later one and vice versa. A retry rebuilds the request from the target and runs again from
///    step 1 with ``Request/attempt`` + 1, up to ``ProviderConfiguration/maxAttempts``.
///    Cancellation is reported to `failure` but never retried or recovered.
/// 5. ``process(_:for:)`` on every plugin in order, each transforming the result of the one
///    before. It runs for every outcome: success, failure, stop, cancellation.
///
/// Beside the deciding hooks, ``didReceive(_:for:)`` observes: the pipeline calls it on every
/// plugin exactly once per attempt, whatever the attempt ended with (a response, an error, a
/// stop, an answer from `prepare`, a request that could not be built, a cancellation), right
/// after the outcome is known and before `succeed`/`failure`. Observers cannot change results;
/// loggers and recorders use it, so they never see an attempt twice or miss one.
///
/// Hooks of one call can share state through ``Request/callStorage``: it is the same store for
/// every hook and every attempt of a call, and writable from hooks that take the request by value.
public protocol Plugin: Sendable {
    /// A name for logs and ``NetworkError/stopped(plugin:reason:)``. Default: the type's name.
    var name: String { get }

    /// Called before sending, in plugin order; may change the request or answer it.
    ///
    /// - Returns: ``PrepareAction/proceed`` to continue (default), ``PrepareAction/respond(_:)``
    ///   to end the request with a response (a cache hit), or ``PrepareAction/provisional(_:)``
    ///   to hand a response to stream consumers now and still send.
    /// - Throws: Any error fails the request; a ``NetworkError`` is kept as it is.
    func prepare(_ request: inout Request) async throws -> PrepareAction

    /// Called on every plugin with the final request just before the transport.
    /// - Returns: ``SendAction/proceed`` (default) or ``SendAction/stop(reason:)``.
    func willSend(_ request: Request) async -> SendAction

    /// Called on every plugin after a response passed validation.
    /// - Returns: ``SucceedAction/proceed`` (default) or ``SucceedAction/retry(after:)``.
    func succeed(_ response: Response, for request: Request) async -> SucceedAction

    /// Called on every plugin after the transport or validation failed.
    /// - Returns: ``FailureAction/proceed`` (default), ``FailureAction/retry(after:)``,
    ///   ``FailureAction/recover(_:)`` to replace the failure with a response, or
    ///   ``FailureAction/fail(_:)`` to replace it with another error.
    func failure(_ error: NetworkError, for request: Request) async -> FailureAction

    /// Observes the outcome of one attempt; called exactly once per attempt on every plugin,
    /// for every outcome. ``Request/attempt`` says which attempt, `attemptStartedAt`
    /// when it began. Default: does nothing.
    func didReceive(_ result: Result<Response, NetworkError>, for request: Request) async

    /// Called on every plugin with the final result; returns it, or a transformed one.
    /// Default: returns `result` unchanged.
    func process(_ result: Result<Response, NetworkError>, for request: Request) async -> Result<Response, NetworkError>
}

public extension Plugin {
    /// The type's name by default.
    var name: String { String(describing: type(of: self)) }
    /// Proceeds by default.
    func prepare(_ request: inout Request) async throws -> PrepareAction {
        DefaultHookProbe.record(Self.self, .prepare)
        return .proceed
    }
    /// Proceeds by default.
    func willSend(_ request: Request) async -> SendAction {
        DefaultHookProbe.record(Self.self, .willSend)
        return .proceed
    }
    /// Proceeds by default.
    func succeed(_ response: Response, for request: Request) async -> SucceedAction {
        DefaultHookProbe.record(Self.self, .succeed)
        return .proceed
    }
    /// Proceeds by default.
    func failure(_ error: NetworkError, for request: Request) async -> FailureAction {
        DefaultHookProbe.record(Self.self, .failure)
        return .proceed
    }
    /// Does nothing by default.
    func didReceive(_ result: Result<Response, NetworkError>, for request: Request) async {
        DefaultHookProbe.record(Self.self, .didReceive)
    }
    /// Identity by default.
    func process(_ result: Result<Response, NetworkError>, for request: Request) async -> Result<Response, NetworkError> {
        DefaultHookProbe.record(Self.self, .process)
        return result
    }
}

/// What ``Plugin/prepare(_:)`` decides.
public enum PrepareAction: Sendable {
    /// Continue to the next plugin and then the transport.
    case proceed
    /// End the request with this response; the transport is not called (KJ's `endRequest`).
    case respond(Response)
    /// Give stream consumers this response now, then continue and send (cache then network).
    case provisional(Response)
}

/// What ``Plugin/willSend(_:)`` decides.
public enum SendAction: Sendable, Equatable {
    /// Send the request.
    case proceed
    /// Do not send; the caller gets ``NetworkError/stopped(plugin:reason:)`` (KJ's `stopRequest`).
    case stop(reason: String)
}

/// What ``Plugin/succeed(_:for:)`` decides.
public enum SucceedAction: Sendable, Equatable {
    /// Keep the response.
    case proceed
    /// Wait, then run the request again from `prepare` (KJ's `againRequest`).
    case retry(after: Duration)
}

/// The earlier name of ``SucceedAction``.
@available(*, deprecated, renamed: "SucceedAction")
public typealias RetryAction = SucceedAction

/// What ``Plugin/failure(_:for:)`` decides.
public enum FailureAction: Sendable {
    /// Keep the failure.
    case proceed
    /// Wait, then run the request again from `prepare`.
    case retry(after: Duration)
    /// Replace the failure with this response (a stale cache entry while offline).
    case recover(Response)
    /// Replace the failure with this error (KJNetworkPlugin's error mapping); no retry.
    case fail(NetworkError)
}
