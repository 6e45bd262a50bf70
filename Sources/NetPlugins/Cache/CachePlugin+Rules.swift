import Foundation
import NetCore
import NetToolbox

/// Which rule applies to a target: its own (``CacheableTarget``), the policy provider's, or the plugin's.
extension CachePlugin {
    /// The rule for `target`, which callers unwrap from ``/NetCore/AnyTarget`` first
    /// (``/NetCore/Request/originalTarget``).
    func rule(for target: any TargetType) -> CacheRule {
        if Self.adoptsCacheableTarget(type(of: target)), let cacheable = target as? any CacheableTarget {
            return CacheRule(
                policy: cacheable.cachePolicy, isExplicit: true, maxAge: cacheable.cacheMaxAge ?? maxAge,
                version: cacheable.cacheVersion ?? version, sensitiveData: cacheable.cacheSensitiveData,
                allowsAuthorization: cacheable.cachesAuthorizedRequests ?? cachesAuthorizedRequests)
        }
        if let chosen = policyProvider?(target) {
            return CacheRule(
                policy: chosen, isExplicit: true, maxAge: maxAge, version: version,
                sensitiveData: nil, allowsAuthorization: cachesAuthorizedRequests)
        }
        return CacheRule(
            policy: policy, isExplicit: false, maxAge: maxAge, version: version,
            sensitiveData: nil, allowsAuthorization: cachesAuthorizedRequests)
    }

    // Perf: Benchmarks row "Cache hits, sequential" (memory cache hit).
    /// Whether targets of `type` adopt ``CacheableTarget``, remembered per type: a failed
    /// `as? any CacheableTarget` searches the conformance tables, a third of a cache hit's cost.
    private static func adoptsCacheableTarget(_ type: any TargetType.Type) -> Bool {
        cacheableTypes.value(for: ObjectIdentifier(type)) { _ in type is any CacheableTarget.Type }
    }

    private static let cacheableTypes = BoundedMemo<ObjectIdentifier, Bool>()

    /// Failures where a stale copy may stand in: ``/NetCore/NetworkError/Code/offline``.
    static func isTransportFailure(_ error: NetworkError) -> Bool {
        NetworkError.Code.offline.contains(error.code)
    }
}
