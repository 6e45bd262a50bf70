import Foundation
import NetCore

/// A target that chooses its own caching: adopt it to override ``CachePlugin``'s defaults.
///
/// ```swift
/// extension API: CacheableTarget {
///     var cachePolicy: CachePolicy { self == .profile ? .cacheElseNetwork : .ignore }
///     var cacheMaxAge: Duration? { .seconds(300) }
/// }
/// ```
/// A policy chosen here applies to any method (a POST search may be cached) and, when
/// ``cachesAuthorizedRequests`` is `true`, to requests carrying credential headers
/// (`Authorization`, `Cookie`, `Proxy-Authorization`, the plugin's `credentialHeaders`), which
/// are then keyed per credential.
public protocol CacheableTarget: TargetType {
    /// The policy for this target.
    var cachePolicy: CachePolicy { get }
    /// How long an entry stays fresh; `nil` uses the plugin's. Default: `nil`.
    var cacheMaxAge: Duration? { get }
    /// The cache version; entries stored under another version are misses. `nil` uses the
    /// plugin's. Default: `nil`.
    var cacheVersion: Int? { get }
    /// Extra text for the key (a user id, a feature flag), like YTK's `cacheSensitiveData`.
    /// Default: `nil`.
    var cacheSensitiveData: String? { get }
    /// Whether requests with credential headers (`Authorization`, `Cookie`,
    /// `Proxy-Authorization`, the plugin's `credentialHeaders`) may be cached, each credential
    /// under its own key; `nil` uses the plugin's setting (off by default). Default: `nil`.
    var cachesAuthorizedRequests: Bool? { get }
}

public extension CacheableTarget {
    /// The plugin's maximum age by default.
    var cacheMaxAge: Duration? { nil }
    /// The plugin's version by default.
    var cacheVersion: Int? { nil }
    /// None by default.
    var cacheSensitiveData: String? { nil }
    /// The plugin's setting by default.
    var cachesAuthorizedRequests: Bool? { nil }
}
