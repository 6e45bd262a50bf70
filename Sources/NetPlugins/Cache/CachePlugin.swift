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
/// applied only to the `defaultMethods`, GET and HEAD unless changed). Requests carrying
/// `Authorization`, downloads to disk, file-backed bodies and, when `respectsCacheControl`,
/// requests with `Cache-Control: no-store` are neither read nor stored unless allowed.
///
/// What is stored: 2xx responses (and entries refreshed by a 304), not `no-store` ones, with the
/// time and the version; ``CacheKey`` names the entry.
///
/// Hooks used:
/// - `prepare` answers hits (`.respond`), offers cached copies (`.provisional`) and adds the
///   conditional headers for ``CachePolicy/revalidate``.
/// - `succeed` stores 2xx responses.
/// - `failure` recovers a 304 (rejected by the usual 2xx validation) with the stored body, and a
///   transport failure with a stale entry under ``CachePolicy/networkElseCache``.
/// - `process` swaps a 304 that the target's validation accepted for the stored body.
///
/// Responses from the cache have ``Response/source`` `.cache` and ``Response/cacheInfo`` set.
public struct CachePlugin: Plugin {
    /// Where entries live.
    public let storage: any CacheStorage
    /// The default policy for targets that do not choose one.
    public let policy: CachePolicy
    /// How long an entry stays fresh by default; `nil` for no age limit (YTK's `cacheTimeInSeconds`).
    public let maxAge: Duration?
    /// The default cache version; bump it to turn every older entry into a miss (YTK's `cacheVersion`).
    public let version: Int
    /// Request headers whose values are part of the key.
    public let keyHeaders: [String]
    /// Whether `Cache-Control` is honoured: `no-store` is never stored, `max-age` caps the age,
    /// `no-cache` makes the entry stale at once (still usable for revalidation and offline).
    public let respectsCacheControl: Bool
    /// Whether requests with an `Authorization` header may be cached by default.
    public let cachesAuthorizedRequests: Bool
    /// The methods the default ``policy`` applies to.
    public let defaultMethods: Set<HTTPMethod>

    private let policyProvider: (@Sendable (any TargetType) -> CachePolicy?)?
    private let now: @Sendable () -> Date

    /// Creates a cache plugin.
    /// - Parameters:
    ///   - storage: Where entries live. Default: ``MemoryStorage`` with its default bounds.
    ///   - policy: The policy for targets that choose none. Default: ``CachePolicy/networkElseCache``
    ///     (the network as usual; the cache only answers when the network fails).
    ///   - maxAge: The default freshness limit; `nil` (default) for none.
    ///   - version: The default cache version. Default 0.
    ///   - keyHeaders: Request headers that vary the key. Default: `Accept-Language`.
    ///   - respectsCacheControl: Honour `Cache-Control` (default `true`).
    ///   - cachesAuthorizedRequests: Cache requests carrying `Authorization` (default `false`).
    ///   - defaultMethods: Methods the default policy covers. Default: GET and HEAD.
    ///   - policyProvider: Chooses a policy per target (`nil` answers fall back to `policy`);
    ///     a ``CacheableTarget`` wins over it.
    ///   - now: The clock, injectable for tests.
    public init(
        storage: any CacheStorage = MemoryStorage(), policy: CachePolicy = .networkElseCache,
        maxAge: Duration? = nil, version: Int = 0, keyHeaders: [String] = ["Accept-Language"],
        respectsCacheControl: Bool = true, cachesAuthorizedRequests: Bool = false,
        defaultMethods: Set<HTTPMethod> = [.get, .head],
        policyProvider: (@Sendable (any TargetType) -> CachePolicy?)? = nil,
        now: @escaping @Sendable () -> Date = Date.init
    ) {
        self.storage = storage
        self.policy = policy
        self.maxAge = maxAge
        self.version = version
        self.keyHeaders = keyHeaders
        self.respectsCacheControl = respectsCacheControl
        self.cachesAuthorizedRequests = cachesAuthorizedRequests
        self.defaultMethods = defaultMethods
        self.policyProvider = policyProvider
        self.now = now
    }

    // MARK: Management

    /// Removes every entry.
    public func removeAll() {
        storage.removeAll()
    }

    /// Removes the entry `request` would read (its key under the target's version and data).
    public func remove(for request: Request) {
        let rule = rule(for: request.target)
        if let key = CacheKey(request: request, version: rule.version, headerNames: keyHeaders,
                              sensitiveData: rule.sensitiveData) {
            storage.remove(for: key)
        }
    }

    /// Removes the entry stored under `key`.
    public func remove(for key: CacheKey) {
        storage.remove(for: key)
    }

    /// The key `request` is cached under, or `nil` when it cannot be cached (file-backed body).
    public func key(for request: Request) -> CacheKey? {
        let rule = rule(for: request.target)
        return CacheKey(request: request, version: rule.version, headerNames: keyHeaders, sensitiveData: rule.sensitiveData)
    }

    /// The bytes the storage holds.
    public var totalBytes: Int { storage.totalBytes }

    /// The number of stored entries.
    public var count: Int { storage.count }

    // MARK: Hooks

    public func prepare(_ request: inout Request) async throws -> PrepareAction {
        // Every path that sends sets or clears the state (the context survives retries); a
        // hit answered here skips the later hooks, so it leaves the context alone (cheaper).
        let rule = rule(for: request.target)
        guard rule.policy != .ignore, rule.isExplicit || defaultMethods.contains(request.method),
              request.download == nil, allowsReading(request.headers, rule: rule),
              let key = CacheKey(request: request, version: rule.version, headerNames: keyHeaders,
                                 sensitiveData: rule.sensitiveData)
        else {
            if rule.policy == .cacheOnly { throw NetworkError.noCachedResponse }
            if request.context[CacheStateKey.self] != nil { request.context[CacheStateKey.self] = nil }
            return .proceed
        }
        var state = CacheState(key: key, rule: rule)
        let time = now()
        switch rule.policy {
        case .ignore, .networkOnly, .networkElseCache:
            break
        case .cacheOnly:
            guard let entry = lookup(key, rule), !entry.isExpired(at: time, limit: rule.maxAge) else {
                throw NetworkError.noCachedResponse
            }
            return .respond(cachedResponse(entry, for: request, at: time, stale: false))
        case .cacheElseNetwork:
            if let entry = lookup(key, rule), !entry.isExpired(at: time, limit: rule.maxAge) {
                return .respond(cachedResponse(entry, for: request, at: time, stale: false))
            }
        case .cacheThenNetwork:
            if let entry = lookup(key, rule) {
                request.context[CacheStateKey.self] = state
                let stale = entry.isExpired(at: time, limit: rule.maxAge)
                return .provisional(cachedResponse(entry, for: request, at: time, stale: stale))
            }
        case .revalidate:
            if let entry = lookup(key, rule) {
                state.revalidating = entry
                if let etag = entry.etag { request.headers["If-None-Match"] = etag }
                if let lastModified = entry.lastModified { request.headers["If-Modified-Since"] = lastModified }
            }
        }
        request.context[CacheStateKey.self] = state
        return .proceed
    }

    public func succeed(_ response: Response, for request: Request) async -> RetryAction {
        guard let state = request.context[CacheStateKey.self], state.rule.policy.writes,
              (200...299).contains(response.statusCode), response.source != .cache,
              response.fileURL == nil, request.download == nil,
              state.rule.allowsAuthorization || !request.headers.contains("Authorization")
        else { return .proceed }
        let control = respectsCacheControl ? CacheControl(response.headers) : nil
        if control?.noStore == true {
            storage.remove(for: state.key)
            return .proceed
        }
        let entry = CacheEntry(statusCode: response.statusCode, headers: response.headers, data: response.data,
                               storedAt: now(), version: state.rule.version, maxAge: control?.responseLimit)
        try? storage.store(entry, for: state.key)
        return .proceed
    }

    public func failure(_ error: NetworkError, for request: Request) async -> FailureAction {
        guard let state = request.context[CacheStateKey.self] else { return .proceed }
        if case .unacceptableStatus(let response) = error, response.statusCode == 304,
           let entry = state.revalidating {
            return .recover(refresh(entry, with: response, state: state, request: request))
        }
        guard state.rule.policy == .networkElseCache, Self.isTransportFailure(error),
              let entry = lookup(state.key, state.rule) else { return .proceed }
        return .recover(cachedResponse(entry, for: request, at: now(), stale: true))
    }

    public func process(_ result: Result<Response, NetworkError>, for request: Request) async -> Result<Response, NetworkError> {
        guard case .success(let response) = result, response.statusCode == 304, response.source != .cache,
              let state = request.context[CacheStateKey.self], let entry = state.revalidating
        else { return result }
        return .success(refresh(entry, with: response, state: state, request: request))
    }

    // MARK: Internals

    /// Stores `entry` refreshed by a 304 (its headers merged in, its age reset) and returns the
    /// response to give the caller.
    private func refresh(_ entry: CacheEntry, with notModified: Response, state: CacheState, request: Request) -> Response {
        var refreshed = entry
        for field in notModified.headers where !Self.representationHeaders.contains(field.name.lowercased()) {
            refreshed.headers[field.name] = field.value
        }
        let time = now()
        refreshed.storedAt = time
        if respectsCacheControl { refreshed.maxAge = CacheControl(refreshed.headers).responseLimit }
        if !(respectsCacheControl && CacheControl(notModified.headers).noStore) {
            try? storage.store(refreshed, for: state.key)
        }
        return cachedResponse(refreshed, for: request, at: time, stale: false)
    }

    /// Whether the request's headers allow caching: no `Authorization` (unless allowed) and no
    /// `Cache-Control: no-store` (when respected). One pass; both names are 13 bytes long.
    private func allowsReading(_ headers: HTTPHeaders, rule: CacheRule) -> Bool {
        for field in headers where field.name.utf8.count == 13 {
            switch field.name.lowercased() {
            case "authorization" where !rule.allowsAuthorization:
                return false
            case "cache-control" where respectsCacheControl && CacheControl(value: field.value).noStore:
                return false
            default:
                continue
            }
        }
        return true
    }

    /// The entry for `key` if it was stored under the rule's version.
    private func lookup(_ key: CacheKey, _ rule: CacheRule) -> CacheEntry? {
        guard let entry = storage.entry(for: key) else { return nil }
        guard entry.version == rule.version else {
            storage.remove(for: key)
            return nil
        }
        return entry
    }

    private func cachedResponse(_ entry: CacheEntry, for request: Request, at time: Date, stale: Bool) -> Response {
        var response = Response(statusCode: entry.statusCode, headers: entry.headers, data: entry.data,
                                request: request, source: .cache)
        response.cacheInfo = CacheInfo(age: entry.age(at: time), isStale: stale)
        return response
    }

    private func rule(for target: any TargetType) -> CacheRule {
        // A metatype comparison first: a failed `as? AnyTarget` cast costs a runtime lookup.
        let target = type(of: target) == AnyTarget.self ? (target as! AnyTarget).base : target
        if Self.adoptsCacheableTarget(type(of: target)), let cacheable = target as? any CacheableTarget {
            return CacheRule(policy: cacheable.cachePolicy, isExplicit: true, maxAge: cacheable.cacheMaxAge ?? maxAge,
                             version: cacheable.cacheVersion ?? version, sensitiveData: cacheable.cacheSensitiveData,
                             allowsAuthorization: cacheable.cachesAuthorizedRequests ?? cachesAuthorizedRequests)
        }
        if let chosen = policyProvider?(target) {
            return CacheRule(policy: chosen, isExplicit: true, maxAge: maxAge, version: version,
                             sensitiveData: nil, allowsAuthorization: cachesAuthorizedRequests)
        }
        return CacheRule(policy: policy, isExplicit: false, maxAge: maxAge, version: version,
                         sensitiveData: nil, allowsAuthorization: cachesAuthorizedRequests)
    }

    /// Whether targets of `type` adopt ``CacheableTarget``, remembered per type: a failed
    /// `as? any CacheableTarget` searches the conformance tables, a third of a cache hit's cost.
    private static func adoptsCacheableTarget(_ type: any TargetType.Type) -> Bool {
        let key = ObjectIdentifier(type)
        if let known = cacheableTypes.withLock({ $0[key] }) { return known }
        let adopts = type is any CacheableTarget.Type
        cacheableTypes.withLock { $0[key] = adopts }
        return adopts
    }

    private static let cacheableTypes = Locked<[ObjectIdentifier: Bool]>([:])

    /// Failures where the server was not reached or its answer was lost: the offline case.
    /// TLS and pinning failures are excluded on purpose: they must surface, not hide behind a
    /// cached copy.
    static func isTransportFailure(_ error: NetworkError) -> Bool {
        switch error {
        case .connectionFailed, .dnsFailure, .timedOut, .connectionLost, .truncatedResponse,
             .invalidResponse, .transport:
            true
        default:
            false
        }
    }

    /// Headers of a 304 that describe its (empty) body, not the stored representation.
    private static let representationHeaders: Set<String> = [
        "content-length", "content-type", "content-encoding", "transfer-encoding", "content-range",
    ]
}

/// The effective caching choices for one request.
struct CacheRule: Sendable {
    var policy: CachePolicy
    /// Chosen by the target or the provider closure (not the plugin default).
    var isExplicit: Bool
    var maxAge: Duration?
    var version: Int
    var sensitiveData: String?
    var allowsAuthorization: Bool
}

/// What `prepare` found, for the later hooks of the same attempt.
struct CacheState: Sendable {
    var key: CacheKey
    var rule: CacheRule
    /// The entry whose validators were sent under ``CachePolicy/revalidate``.
    var revalidating: CacheEntry?
}

enum CacheStateKey: RequestContextKey {
    static let defaultValue: CacheState? = nil
}
