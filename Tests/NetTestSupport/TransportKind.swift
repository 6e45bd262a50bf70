import Foundation
import NetCore

/// The transports the live suites run against, by parameter: every test that takes a
/// `TransportKind` runs once per transport (never by copy).
public enum TransportKind: String, CaseIterable, CustomStringConvertible, Sendable {
    case urlSession
    case curl

    /// A new transport of this kind with its default configuration.
    public func make() -> any Transport {
        switch self {
        case .urlSession: URLSessionTransport()
        case .curl: CurlTransport()
        }
    }

    public var description: String { rawValue }
}
