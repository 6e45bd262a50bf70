/// How urgent a request is. ``TargetOptions/priority`` sets it per target.
///
/// `BatchManager` starts higher-priority items first under its concurrency limit (keeping the
/// input order within a priority), and `CurlTransport` passes it to HTTP/2 as the stream weight,
/// so a server that honours weights serves urgent streams first on a shared connection.
public struct RequestPriority: RawRepresentable, Comparable, Hashable, Sendable {
    /// 1 (lowest) to 256 (highest), the range of an HTTP/2 stream weight.
    public let rawValue: Int

    /// Creates a priority; values are clamped to 1...256.
    public init(rawValue: Int) { self.rawValue = min(256, max(1, rawValue)) }

    /// Background work (prefetches).
    public static let low = RequestPriority(rawValue: 8)
    /// The default.
    public static let normal = RequestPriority(rawValue: 16)
    /// What the user waits for now.
    public static let high = RequestPriority(rawValue: 128)

    public static func < (lhs: RequestPriority, rhs: RequestPriority) -> Bool { lhs.rawValue < rhs.rawValue }
}
