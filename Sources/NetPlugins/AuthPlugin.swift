import NetToolbox
import Foundation
import NetCore

/// Attaches `Authorization: Bearer <token>` and, when given a `refresh`, refreshes the token once
/// when the server answers 401, however many requests were rejected together (single flight),
/// then retries them.
///
/// ```swift
/// let auth = AuthPlugin(
///     token: { try await keychain.accessToken() },
///     refresh: { try await session.refreshAccessToken() }   // must not go through this plugin
/// )
/// let provider = Provider<API>(plugins: [auth, LoggerPlugin()])
///
/// let fixed = AuthPlugin(token: { apiKey })                 // no refresh: a 401 ends the call
/// ```
///
/// - Targets that adopt ``AccessTokenAuthorizable`` choose their scheme (``AuthorizationType``:
///   `Bearer`, `Basic` or a custom word) or no token at all (`nil`), as with Moya's
///   `AccessTokenPlugin`; target types that do not adopt it get `scheme` on every request.
///   ``/NetCore/AnyTarget`` adopts it like Moya's `MultiTarget`: a wrapped target's choice
///   counts, and a wrapped target that does not adopt it gets no token.
/// - The first request asks `token` for a token (one call even for many concurrent requests) and
///   the plugin keeps it. Requests that already carry the header (a login endpoint with Basic
///   credentials) are left alone; so are requests `appliesTo` rejects.
/// - Without `refresh`, a 401 ends the call with its 401: nothing is refreshed or retried.
/// - With `refresh`, on 401 (in `failure`, or in `succeed` when the target's validation accepts
///   401) the plugin calls `refresh` once and shares that one refresh among every request that was
///   rejected with the same token: 50 concurrent 401s cause exactly one refresh. A 401 for a
///   token that was already replaced retries with the new token without refreshing again.
///   Requests that start while a refresh runs wait for it instead of sending the stale token.
/// - Each call is retried for authentication at most once, so a new token that is rejected too
///   ends the call with its 401 instead of looping. (``/NetCore/ProviderConfiguration/maxAttempts`` must
///   allow the extra attempt; the default 3 does.)
/// - A failed refresh fails every request that waited for it with
///   ``/NetCore/NetworkError/pluginFailed(plugin:reason:underlying:)`` naming the refresh error (``/NetCore/FailureAction/fail(_:)``
///   from `failure`, so every plugin's `process` sees the final error). When the target's
///   validation accepts 401, the 401 response is kept.
///
/// The plugin keeps only its own state: the token, and per call (in ``/NetCore/Request/callStorage``)
/// whether the call was already retried. The hot path (a token is known, no refresh running)
/// takes one short lock in `prepare`; the shared state is only awaited on the 401 path.
///
/// `refresh` must not send its request through a provider that uses this same plugin (it would
/// wait for itself); use a separate provider, or exclude the token endpoint with `appliesTo`.
/// A caller cancelled while a refresh runs stops waiting at once; the refresh goes on for the others.
public final class AuthPlugin: Plugin {
    /// The header that carries the token. Default `Authorization`.
    package let header: String
    /// The scheme before the token for target types that do not adopt ``AccessTokenAuthorizable``.
    /// Default `Bearer`; empty for the bare token.
    package let scheme: String
    private let fetchToken: @Sendable () async throws -> String
    private let refreshToken: (@Sendable () async throws -> String)?
    private let appliesTo: @Sendable (Request) -> Bool
    private let state = Locked(State())

    private struct State {
        var token: String?
        /// Increments whenever the token changes, so a request knows whether its token is stale.
        var generation = 0
        var pending: Task<String, any Error>?
        var refreshes = 0
    }

    /// Whether this call was already retried once for authentication.
    private enum RetriedKey: RequestContextKey {
        static var defaultValue: Bool { false }
    }

    /// Which token a request was sent with.
    private struct SentToken: Sendable {
        let generation: Int
    }

    private enum SentTokenKey: RequestContextKey {
        static let defaultValue: SentToken? = nil
    }

    /// Creates the plugin.
    /// - Parameters:
    ///   - header: The header to set. Default `Authorization`.
    ///   - scheme: Written before the token, for target types that do not adopt
    ///     ``AccessTokenAuthorizable``. Default `Bearer`.
    ///   - token: Returns the current token; called when the plugin has none yet.
    ///   - refresh: Returns a new token after a 401; called once per batch of rejected requests.
    ///     Default `nil`: a 401 ends the call with its 401, without a retry.
    ///   - appliesTo: Which requests get a token. Default: all.
    public init(
        header: String = "Authorization", scheme: String = "Bearer",
        token: @escaping @Sendable () async throws -> String,
        refresh: (@Sendable () async throws -> String)? = nil,
        appliesTo: @escaping @Sendable (Request) -> Bool = { _ in true }
    ) {
        self.header = header
        self.scheme = scheme
        self.fetchToken = token
        self.refreshToken = refresh
        self.appliesTo = appliesTo
    }

    /// The token the plugin attaches now, if it has one.
    public var currentToken: String? { state.withLock { $0.token } }

    /// How many refreshes have completed successfully.
    package var refreshCount: Int { state.withLock { $0.refreshes } }

    /// Replaces the token (after a login, say); requests from now on carry it.
    public func setToken(_ token: String) {
        state.withLock { state in
            state.token = token
            state.generation += 1
        }
    }

    /// Forgets the token (after a logout); the next request asks `token` again.
    public func clearToken() {
        state.withLock { state in
            state.token = nil
            state.generation += 1
        }
    }

    // MARK: Hooks

    public func prepare(_ request: inout Request) async throws -> PrepareAction {
        guard !request.headers.contains(header), appliesTo(request), let scheme = chosenScheme(for: request) else { return .proceed }
        let (token, generation) = try await usableToken(for: request)
        request.headers[header] = scheme.isEmpty ? token : scheme + " " + token
        request.context[SentTokenKey.self] = SentToken(generation: generation)
        return .proceed
    }

    public func succeed(_ response: Response, for request: Request) async -> SucceedAction {
        guard response.statusCode == 401, case .retry = await refreshAfterRejection(of: request) else { return .proceed }
        return .retry(after: .zero)
    }

    public func failure(_ error: NetworkError, for request: Request) async -> FailureAction {
        guard error.statusCode == 401, case .unacceptableStatus = error else { return .proceed }
        switch await refreshAfterRejection(of: request) {
        case .retry:
            return .retry(after: .zero)
        case .keep:
            return .proceed
        case .refreshFailed(let reason):
            return .fail(
                .pluginFailed(plugin: name, reason: "the token refresh failed (\(reason)), so \(request.method) \(request.url.path) stays unauthorized (401)"))
        }
    }

    // MARK: Schemes

    /// The scheme word for `request`'s target, or `nil` when the target asks for no token. An
    /// ``/NetCore/AnyTarget`` answers for the target it wraps (and `nil` when that one does not
    /// adopt ``AccessTokenAuthorizable``).
    private func chosenScheme(for request: Request) -> String? {
        let target = request.target
        guard Self.adoptsAccessTokenAuthorizable(type(of: target)), let authorizable = target as? any AccessTokenAuthorizable else {
            return scheme
        }
        return authorizable.authorizationType?.value
    }

    /// Whether targets of `type` adopt ``AccessTokenAuthorizable``, remembered per type: a failed
    /// `as? any AccessTokenAuthorizable` searches the conformance tables on every request.
    private static func adoptsAccessTokenAuthorizable(_ type: any TargetType.Type) -> Bool {
        authorizableTypes.value(for: ObjectIdentifier(type)) { _ in type is any AccessTokenAuthorizable.Type }
    }

    private static let authorizableTypes = BoundedMemo<ObjectIdentifier, Bool>()

    // MARK: Tokens

    /// The known token, or the result of the running fetch or refresh, or a new fetch.
    private func usableToken(for request: Request) async throws -> (String, Int) {
        enum Next { case ready(String, Int), wait(Task<String, any Error>) }
        let next = state.withLock { state -> Next in
            if state.pending == nil, let token = state.token { return .ready(token, state.generation) }
            if let pending = state.pending { return .wait(pending) }
            let task = makePendingTask(state: &state, work: fetchToken, refreshing: false)
            return .wait(task)
        }
        switch next {
        case .ready(let token, let generation):
            return (token, generation)
        case .wait(let task):
            do {
                _ = try await waitCancellably(for: task)
            } catch is CancellationError {
                throw NetworkError.cancelled
            } catch {
                throw NetworkError.pluginFailed(plugin: name, reason: "could not get a token: \(error)", underlying: error)
            }
            // Read the state again: the token may have changed since the task ended.
            return try await usableToken(for: request)
        }
    }

    /// What to do with a request rejected with 401.
    private enum Rejection {
        case retry
        case keep
        case refreshFailed(String)
    }

    /// Decides, for a request rejected with 401, whether to retry it: once per call, after the
    /// single shared refresh (or at once when its token was already replaced). Without a
    /// `refresh` closure, never.
    private func refreshAfterRejection(of request: Request) async -> Rejection {
        guard let refreshToken, let sent = request.context[SentTokenKey.self], !request.callStorage[RetriedKey.self] else { return .keep }
        request.callStorage[RetriedKey.self] = true
        enum Step { case retry, wait(Task<String, any Error>) }
        let step = state.withLock { state -> Step in
            if let pending = state.pending { return .wait(pending) }
            if state.generation != sent.generation, state.token != nil { return .retry }
            return .wait(makePendingTask(state: &state, work: refreshToken, refreshing: true))
        }
        switch step {
        case .retry:
            return .retry
        case .wait(let task):
            do {
                _ = try await waitCancellably(for: task)
                return .retry
            } catch is CancellationError {
                // The caller was cancelled while the refresh runs on for the others; the
                // pipeline reports the cancellation.
                return .keep
            } catch {
                return .refreshFailed(String(describing: error))
            }
        }
    }

    /// Starts the one fetch or refresh that every waiter shares. Called with the lock held; the
    /// task takes the lock only after it has awaited the closure, so it never runs under it.
    private func makePendingTask(
        state: inout State, work: @escaping @Sendable () async throws -> String, refreshing: Bool
    ) -> Task<String, any Error> {
        let task = Task<String, any Error> { [self] in
            do {
                let token = try await work()
                self.state.withLock { state in
                    state.token = token
                    state.generation += 1
                    if refreshing { state.refreshes += 1 }
                    state.pending = nil
                }
                return token
            } catch {
                self.state.withLock { $0.pending = nil }
                throw error
            }
        }
        state.pending = task
        return task
    }
}
