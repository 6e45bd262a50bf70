import NetToolbox
import Foundation
import NetCore

/// Answers requests from a memory and/or disk cache, by policy, using only the plugin hooks.
///
/// ```swift
/// let cache = CachePlugin(storage: .memoryAndDisk(directory: cachesURL),
///                         policy: .cacheElseNetwork, maxAge: .seconds(300))
/// let provider = Provider<API>(plugins: [cache])
/// ```
///
/// Which policy applies: a ``CacheableTarget``'s ``CacheableTarget/cachePolicy``, else the
/// `policyProvider` closure's answer, else the plugin's `policy` (which, being a default, is
/// applied only to the `defaultMethods`, GET and HEAD unless changed). Downloads to disk,
/// streamed calls (``/NetCore/Request/streamsResponseBody``: the body goes to the reader, the
/// cache never sees it), file-backed bodies and, when `respectsCacheControl`, requests with
/// `Cache-Control: no-store` are neither read nor stored.
///
/// ## One user's response is never another's
///
/// Credential headers are `Authorization`, `Cookie`, `Proxy-Authorization` and the names given
/// as `credentialHeaders` (any case). A request carrying any of them is neither read from nor
/// stored in the cache unless `cachesAuthorizedRequests` (or the target's
/// ``CacheableTarget/cachesAuthorizedRequests``) is `true`; then its key ends with a digest of
/// those headers, so each credential has its own entries.
///
/// The cache key is the text
/// `1|METHOD|URL|BODY|vVERSION[|name=value…][|s=DATA][|c=DIGEST]`:
/// - `METHOD`: the request method.
/// - `URL`: the canonical URL: the fragment removed, query items sorted by their bytes, their
///   percent-encoding kept.
/// - `BODY`: the SHA-256 of the body in lowercase hexadecimal; empty when there is no body.
///   Requests whose body is a file (uploads, multipart with files) are not cached.
/// - `VERSION`: the target's ``CacheableTarget/cacheVersion``, else the plugin's `version`.
/// - `|name=value`: for each of `keyHeaders` the request has, in the order given, the name
///   lowercased (`Accept-Language` by default).
/// - `|s=DATA`: the target's ``CacheableTarget/cacheSensitiveData``, when set.
/// - `|c=DIGEST`: when the request has credential headers: the SHA-256, in lowercase hexadecimal,
///   of one line `name:value\n` per credential header present, names lowercased and sorted,
///   values exactly as sent. Credentials never appear in the key in clear.
///
/// `%` and `|` inside header values and `DATA` are percent-encoded. Disk files are named after
/// the SHA-256 of the key text.
///
/// The key is computed in `prepare` from the request as it stands at this plugin's place in the
/// plugin list. If a later plugin (an `AuthPlugin` placed after this one) changes the credential
/// headers, the response is not stored: list `CachePlugin` after the plugins that add
/// credentials.
///
/// ## What is stored
///
/// 2xx responses (and entries refreshed by a 304) with the time, the version and the values of
/// the request headers their `Vary` names. Never stored (and an older entry under the same key is
/// removed): responses with `Cache-Control: no-store` (when `respectsCacheControl`), responses
/// with `Vary: *`, and responses with `Cache-Control: private` (also `private="…"`) unless this
/// cache is `isPrivate` (it belongs to one user). `Vary` and `private` are honoured even when
/// `respectsCacheControl` is `false`.
///
/// An entry answers a request only when its `Vary` matches: every request header it names has the
/// value (surrounding spaces ignored) the storing request had, an absent header matching only an
/// absent one. Values of credential headers are kept as digests. A mismatch is a miss (the entry
/// is neither served, nor used for revalidation, nor used as an offline fallback).
///
/// Hooks used:
/// - `prepare` answers hits (`.respond`), offers cached copies (`.provisional`) and adds the
///   conditional headers for ``CachePolicy/revalidate``.
/// - `succeed` stores 2xx responses.
/// - `failure` recovers a 304 (rejected by the usual 2xx validation) with the stored body, and a
///   transport failure with a stale entry under ``CachePolicy/networkElseCache``.
/// - `process` swaps a 304 that the target's validation accepted for the stored body.
///
/// Responses from the cache have ``/NetCore/Response/source`` `.cache` and ``/NetCore/Response/cacheInfo`` set.
public struct CachePlugin: Plugin {
    /// Where entries live.
    package let storage: CacheStorage
    /// The default policy for targets that do not choose one.
    package let policy: CachePolicy
    /// How long an entry stays fresh by default; `nil` for no age limit (YTK's `cacheTimeInSeconds`).
    package let maxAge: Duration?
    /// The default cache version; bump it to turn every older entry into a miss (YTK's `cacheVersion`).
    package let version: Int
    /// Request headers whose values are part of the key.
    package let keyHeaders: [String]
    /// Whether `Cache-Control` is honoured: `no-store` is never stored, `max-age` caps the age,
    /// `no-cache` makes the entry stale at once (still usable for revalidation and offline).
    package let respectsCacheControl: Bool
    /// Whether requests with credential headers (`Authorization`, `Cookie`, `Proxy-Authorization`,
    /// ``credentialHeaders``) may be cached by default; each credential then has its own entries.
    package let cachesAuthorizedRequests: Bool
    /// Header names, besides `Authorization`, `Cookie` and `Proxy-Authorization`, that identify
    /// the user (`X-Api-Key`, `X-Session`): treated like `Authorization` for reading, storing and
    /// the key's credential digest.
    package let credentialHeaders: Set<String>
    /// Whether this cache belongs to one user: only such a cache stores responses marked
    /// `Cache-Control: private`.
    package let isPrivate: Bool
    /// The methods the default ``policy`` applies to.
    package let defaultMethods: Set<HTTPMethod>

    /// Every credential header name: the standard ones and ``credentialHeaders``.
    let credentials: CredentialHeaders
    let policyProvider: (@Sendable (any TargetType) -> CachePolicy?)?
    let now: @Sendable () -> Date
    /// Sends the background revalidations of ``CachePolicy/http``'s `stale-while-revalidate`.
    package let revalidationTransport: (any Transport)?
    /// Keys with a background revalidation under way.
    let refreshesInFlight = Locked<Set<CacheKey>>([])

    /// Creates a cache plugin.
    /// - Parameters:
    ///   - storage: Where entries live. Default: ``CacheStorage/memory(maxBytes:maxCount:)`` with its default bounds.
    ///   - policy: The policy for targets that choose none. Default: ``CachePolicy/networkElseCache``
    ///     (the network as usual; the cache only answers when the network fails).
    ///   - maxAge: The default freshness limit; `nil` (default) for none.
    ///   - version: The default cache version. Default 0.
    ///   - keyHeaders: Request headers that vary the key. Default: `Accept-Language`.
    ///   - respectsCacheControl: Honour `Cache-Control` (default `true`).
    ///   - cachesAuthorizedRequests: Cache requests carrying credential headers (`Authorization`,
    ///     `Cookie`, `Proxy-Authorization`, `credentialHeaders`), keyed per credential (default `false`).
    ///   - credentialHeaders: More header names that identify the user (any case). Default: none.
    ///   - isPrivate: `true` when this cache belongs to one user (one signed-in account, one
    ///     device owner): only then are `Cache-Control: private` responses stored. Default `false`.
    ///   - defaultMethods: Methods the default policy covers. Default: GET and HEAD.
    ///   - policyProvider: Chooses a policy per target (`nil` answers fall back to `policy`);
    ///     a ``CacheableTarget`` wins over it.
    ///   - revalidationTransport: Under ``CachePolicy/http``, the transport that revalidates in the
    ///     background an entry served stale within its `stale-while-revalidate` window (usually the
    ///     provider's transport). `nil` (default): such an entry is revalidated before it is served.
    ///   - now: The clock, injectable for tests.
    public init(
        storage: CacheStorage = .memory(), policy: CachePolicy = .networkElseCache,
        maxAge: Duration? = nil, version: Int = 0, keyHeaders: [String] = ["Accept-Language"],
        respectsCacheControl: Bool = true, cachesAuthorizedRequests: Bool = false,
        credentialHeaders: Set<String> = [], isPrivate: Bool = false,
        defaultMethods: Set<HTTPMethod> = [.get, .head],
        policyProvider: (@Sendable (any TargetType) -> CachePolicy?)? = nil,
        revalidationTransport: (any Transport)? = nil,
        now: @escaping @Sendable () -> Date = Date.init
    ) {
        self.revalidationTransport = revalidationTransport
        self.storage = storage
        self.policy = policy
        self.maxAge = maxAge
        self.version = version
        self.keyHeaders = keyHeaders
        self.respectsCacheControl = respectsCacheControl
        self.cachesAuthorizedRequests = cachesAuthorizedRequests
        self.credentialHeaders = credentialHeaders
        self.isPrivate = isPrivate
        self.credentials = CredentialHeaders(extra: credentialHeaders)
        self.defaultMethods = defaultMethods
        self.policyProvider = policyProvider
        self.now = now
    }

    // MARK: Management

    /// Removes every entry.
    public func removeAll() async {
        await storage.removeAll()
    }

    /// Removes the entry `request` would read (its key under the target's version and data).
    public func remove(for request: Request) async {
        if let key = key(for: request) { await storage.remove(for: key) }
    }

    /// Removes the entry stored under `key`.
    package func remove(for key: CacheKey) async {
        await storage.remove(for: key)
    }

    /// The key `request` is cached under, or `nil` when it cannot be cached (file-backed body).
    package func key(for request: Request) -> CacheKey? {
        key(for: request, rule: rule(for: request.originalTarget), credentialDigest: credentials.digest(of: request.headers))
    }

    func key(for request: Request, rule: CacheRule, credentialDigest: String?) -> CacheKey? {
        CacheKey(
            request: request, version: rule.version, headerNames: keyHeaders, sensitiveData: rule.sensitiveData,
            credentialDigest: credentialDigest)
    }

    /// The bytes the storage holds.
    public var totalBytes: Int { get async { await storage.totalBytes } }

    /// The number of stored entries.
    public var count: Int { get async { await storage.count } }

    // MARK: Hooks

    /// The cache's decision in `prepare` (see CachePlugin+Events.swift, which reports it).
    func decide(_ request: inout Request) async throws -> PrepareAction {
        // Every path that sends sets or clears the state (the context survives retries); a
        // hit answered here skips the later hooks, so it leaves the context alone (cheaper).
        let rule = rule(for: request.originalTarget)
        guard rule.policy != .ignore, rule.isExplicit || defaultMethods.contains(request.method),
            request.download == nil, !request.streamsResponseBody, allowsReading(request.headers, rule: rule),
            case let credentialDigest = credentials.digest(of: request.headers),
            let key = key(for: request, rule: rule, credentialDigest: credentialDigest)
        else {
            if rule.policy == .cacheOnly { throw NetworkError.noCachedResponse }
            if request.context[CacheStateKey.self] != nil { request.context[CacheStateKey.self] = nil }
            return .proceed
        }
        var state = CacheState(key: key, rule: rule, credentialDigest: credentialDigest)
        let time = now()
        switch rule.policy {
        case .ignore, .networkOnly, .networkElseCache:
            break
        case .cacheOnly:
            guard let entry = await lookup(key, rule, for: request), !entry.isExpired(at: time, limit: rule.maxAge) else {
                throw NetworkError.noCachedResponse
            }
            return .respond(cachedResponse(entry, for: request, at: time, stale: false))
        case .cacheElseNetwork:
            if let entry = await lookup(key, rule, for: request), !entry.isExpired(at: time, limit: rule.maxAge) {
                return .respond(cachedResponse(entry, for: request, at: time, stale: false))
            }
        case .cacheThenNetwork:
            if let entry = await lookup(key, rule, for: request) {
                request.context[CacheStateKey.self] = state
                let stale = entry.isExpired(at: time, limit: rule.maxAge)
                return .provisional(cachedResponse(entry, for: request, at: time, stale: stale))
            }
        case .http:
            return await prepareHTTP(&request, state: state, at: time)
        case .revalidate:
            if let entry = await lookup(key, rule, for: request) {
                state.revalidating = entry
                if let etag = entry.etag { request.headers["If-None-Match"] = etag }
                if let lastModified = entry.lastModified { request.headers["If-Modified-Since"] = lastModified }
            }
        }
        request.context[CacheStateKey.self] = state
        return .proceed
    }

    public func succeed(_ response: Response, for request: Request) async -> SucceedAction {
        await invalidateIfUnsafe(response, for: request)
        if let state = request.context[CacheStateKey.self], state.rule.policy == .http {
            if response.statusCode < 500 || staleAnswer(for: request, state: state, transportFailure: false) == nil {
                await storeHTTP(response, for: request, state: state)
            }
            return .proceed
        }
        guard let state = request.context[CacheStateKey.self], state.rule.policy.writes,
            StatusRules.isSuccess(response.statusCode), response.source != .cache,
            response.fileURL == nil, request.download == nil, !request.streamsResponseBody,
            mayStore(for: request, state: state)
        else { return .proceed }
        guard let varying = admission(of: response.headers, for: request) else {
            await storage.remove(for: state.key)
            return .proceed
        }
        let limit = respectsCacheControl ? CacheControl(response.headers).responseLimit : nil
        let entry = CacheEntry(
            statusCode: response.statusCode, headers: response.headers, data: response.data,
            storedAt: now(), version: state.rule.version, maxAge: limit, varyingHeaders: varying)
        await storage.storeIfPossible(entry, for: state.key)
        return .proceed
    }

    public func failure(_ error: NetworkError, for request: Request) async -> FailureAction {
        if case .unacceptableStatus(let response) = error { await invalidateIfUnsafe(response, for: request) }
        guard let state = request.context[CacheStateKey.self] else { return .proceed }
        if case .unacceptableStatus(let response) = error, response.statusCode == 304,
            let entry = state.revalidating
        {
            return .recover(await refresh(entry, with: response, state: state, request: request))
        }
        if state.rule.policy == .http {
            let isServerError: Bool
            if case .unacceptableStatus(let response) = error {
                isServerError = response.statusCode >= 500
                if !isServerError { await storeHTTP(response, for: request, state: state) }
            } else {
                isServerError = false
            }
            guard isServerError || Self.isTransportFailure(error),
                let stale = staleAnswer(for: request, state: state, transportFailure: !isServerError)
            else { return .proceed }
            return .recover(stale)
        }
        guard state.rule.policy == .networkElseCache, Self.isTransportFailure(error),
            let entry = await lookup(state.key, state.rule, for: request)
        else { return .proceed }
        return .recover(cachedResponse(entry, for: request, at: now(), stale: true))
    }

    public func process(_ result: Result<Response, NetworkError>, for request: Request) async -> Result<Response, NetworkError> {
        guard case .success(let response) = result, response.source != .cache else { return Self.validated(result) }
        guard response.statusCode == 304 || response.statusCode >= 500,
            let state = request.context[CacheStateKey.self], let entry = state.revalidating
        else { return result }
        if response.statusCode == 304 { return .success(await refresh(entry, with: response, state: state, request: request)) }
        return staleAnswer(for: request, state: state, transportFailure: false).map { .success($0) } ?? result
    }
}
