import Foundation
import NetCore
import NetCurl

/// The transports the shared integration suite runs against, by parameter: every integration
/// test that takes a `TransportKind` runs once per transport.
enum TransportKind: String, CaseIterable, CustomStringConvertible, Sendable {
    case urlSession
    case curl

    func make() -> any Transport {
        switch self {
        case .urlSession: URLSessionTransport()
        case .curl: CurlTransport()
        }
    }

    var description: String { rawValue }
}
