import Foundation

/// Which failures may be tried again: the one table behind every "retry?" answer in NetKit.
///
/// Every ``NetworkError/Code`` is in exactly one of ``transient``, ``permanent`` and
/// ``situational`` (a test walks `Code.allCases`, so a new code cannot be left out); the other
/// sets are made from those three. Who reads which set:
///
/// | set | read by |
/// |---|---|
/// | ``transient`` | ``NetworkError/isTransient``, so `RetryPlugin`'s transport rule; event-stream reconnects (`Provider.events(_:reconnect:)`) |
/// | ``permanent`` | `BatchConfiguration.defaultIsRetryable` retries every code but these |
/// | ``offline`` | `CachePlugin`: a stale copy may stand in for these (`networkElseCache`, `stale-if-error`) |
extension NetworkError.Code {
    /// The server was not reached, or its answer was lost on the way: trying again might succeed.
    package static let transient: Set<Self> = [.connectionFailed, .dnsFailure, .timedOut, .connectionLost, .truncatedResponse]

    /// Fails the same way again, whatever the wait: the request cannot be built or was refused
    /// before sending, a plugin or the caller ended it, or the server broke the protocol, a pin or
    /// a limit (protocol violations are never transient: the third release's decision 4).
    package static let permanent: Set<Self> = [
        .invalidURL, .encodingFailed, .unreadableFile, .invalidRequest, .tlsPolicyUnsupported,
        .stopped, .cancelled,
        .invalidResponse, .pinningFailed, .responseTooLarge, .redirectRefused,
    ]

    /// Depends on what the server or a plugin answers next (a 503 may clear, a business code may
    /// change), or on what NetKit cannot classify (an unknown transport failure, a file system
    /// error): the caller's rules decide.
    package static let situational: Set<Self> = [
        .proxyFailed, .tlsFailure, .fileSystem, .transport,
        .unacceptableStatus, .unacceptableContentType, .decodingFailed, .businessCode,
        .noCachedResponse, .pluginFailed,
    ]

    /// The network, not the server's answer, failed (``transient`` plus the unclassified
    /// ``transport`` and a response that could not be read): a cached copy may stand in. TLS and
    /// pin failures are left out on purpose: they must surface, never hide behind a cache.
    package static let offline: Set<Self> = transient.union([.transport, .invalidResponse])
}

extension NetworkError {
    /// Whether trying again might succeed: `transient` (timeouts, lost or
    /// refused connections, DNS, a body cut short).
    public var isTransient: Bool { Code.transient.contains(code) }
}
