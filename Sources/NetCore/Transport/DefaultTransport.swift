import NetBase
import Foundation

/// The transport a ``Provider`` uses when it is given none: one process-wide instance, created
/// on first use and kept for the life of the process (so it is never torn down while in use).
///
/// - Linux: `CurlTransport` (libcurl's multi interface: 3-9x the throughput of URLSession there,
///   TLS pinning, progress, 307/308 bodies, and no FoundationNetworking aborts).
/// - Apple platforms: ``URLSessionTransport``.
///
/// Every provider without an explicit transport shares it, so they share its connection pools
/// and, on Linux, its event loops: one thread per active processor core, at most 8
/// (`CurlTransport.Configuration.eventLoops`).
public enum DefaultTransport {
    /// The shared default transport of this platform.
    public static var shared: any Transport { instance }

    #if canImport(CCurl)
        private static let instance: any Transport = CurlTransport()
    #else
        private static let instance: any Transport = URLSessionTransport()
    #endif
}
