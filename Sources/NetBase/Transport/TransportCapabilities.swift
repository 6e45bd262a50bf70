import Foundation

/// Optional abilities of a ``Transport``.
public struct TransportCapabilities: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Enforces ``TLSPolicy`` pins, trusted certificates and client identities. Without it, a
    /// request with a policy fails with ``NetworkError/tlsPolicyUnsupported(transport:host:)``
    /// before anything is sent.
    public static let tlsPolicy = TransportCapabilities(rawValue: 1 << 0)
    /// Speaks HTTP/2. Information for callers: NetKit behaves the same either way.
    public static let http2 = TransportCapabilities(rawValue: 1 << 1)
    /// Continues partial downloads with `Range`. Without it, a resumable download is fetched
    /// whole and replaces the partial file (no error).
    public static let resumableDownload = TransportCapabilities(rawValue: 1 << 2)
    /// Reports upload and download progress while bytes move. Without it, the provider reports
    /// one final event per direction (completed == total) when the response has arrived.
    public static let progress = TransportCapabilities(rawValue: 1 << 3)
    /// Sends through the proxies of ``Request/proxy``. Without it, a request that would go
    /// through a proxy fails with ``NetworkError/proxyFailed(proxy:reason:underlying:)`` before anything
    /// is sent (never directly, around the proxy).
    public static let proxy = TransportCapabilities(rawValue: 1 << 4)
    /// Applies ``Request/cookieJar`` itself on every redirect hop (the built-in transports do,
    /// through the same code). Without it, the provider applies the jar around the whole
    /// exchange: its cookies go with the request, and the final response's `Set-Cookie` headers
    /// are stored.
    public static let cookieJar = TransportCapabilities(rawValue: 1 << 5)
}
