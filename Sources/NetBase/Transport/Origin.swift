import NetToolbox
import Foundation

/// Scheme, host and port: two URLs with equal origins may share credentials.
package struct Origin: Hashable, Sendable, CustomStringConvertible {
    let scheme: String
    let host: String
    let port: Int

    package init(_ url: URL) {
        scheme = url.scheme?.lowercased() ?? ""
        host = url.host?.lowercased() ?? ""
        port = url.port ?? defaultPort(forScheme: scheme) ?? -1
    }

    /// `scheme://host:port`.
    package var description: String { "\(scheme)://\(host):\(port)" }
}
