/// How urgent a request is. ``TargetOptions/priority`` sets it per target.
///
/// `BatchManager` starts higher-priority items first under its concurrency limit (keeping the
/// input order within a priority), and `CurlTransport` passes it to HTTP/2 as the stream weight,
/// so a server that honours weights serves urgent streams first on a shared connection.
public enum RequestPriority: Sendable, Hashable, Comparable {
    /// Background work (prefetches).
    case low
    /// The default.
    case normal
    /// What the user waits for now.
    case high

    /// The HTTP/2 stream weight (1 to 256).
    package var rawValue: Int {
        switch self {
        case .low: 8
        case .normal: 16
        case .high: 128
        }
    }
}
