import Foundation
import NetCore

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
    /// The digest of the credential headers `prepare` saw (`nil`: none): a response to a request
    /// whose credentials changed after `prepare` is not stored under this key.
    var credentialDigest: String?
    /// When `prepare` ran (``CachePolicy/http`` counts the time in flight into the age).
    var requestTime: Date?
}

enum CacheStateKey: RequestContextKey {
    static let defaultValue: CacheState? = nil
}
