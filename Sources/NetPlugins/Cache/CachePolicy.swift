import Foundation

/// How ``CachePlugin`` uses its storage for one request.
public enum CachePolicy: String, Sendable, Hashable, CaseIterable {
    /// Neither reads nor writes the cache.
    case ignore
    /// Always sends; stores a successful response.
    case networkOnly
    /// Answers from a fresh entry, or fails with ``/NetCore/NetworkError/noCachedResponse``; never sends.
    case cacheOnly
    /// Answers from a fresh entry; otherwise sends and stores the response.
    case cacheElseNetwork
    /// Sends and stores; when the transport fails (not an HTTP error status), answers from any
    /// entry of the right version, marked stale.
    case networkElseCache
    /// Hands a cached entry (even an expired one, then marked stale) to `Provider.responses(_:)`
    /// first as a provisional response, then sends and stores; `request(_:)` returns the network
    /// response. If the network fails, the call fails: the stream has already had the cached copy.
    case cacheThenNetwork
    /// Sends with `If-None-Match` / `If-Modified-Since` from the stored entry; a `304 Not Modified`
    /// answers with the stored body and refreshes the entry's age.
    case revalidate
    /// A private HTTP cache following RFC 9111 and RFC 5861: the response's and the request's
    /// `Cache-Control`, `Expires`, `Age`, `Date` and validators decide what is stored, what is
    /// fresh and what is revalidated (see the Caching article). Responses to unsafe methods
    /// invalidate the entries of their URL.
    case http

    /// Whether the policy writes successful responses to storage.
    var writes: Bool { self != .ignore && self != .cacheOnly }
}
