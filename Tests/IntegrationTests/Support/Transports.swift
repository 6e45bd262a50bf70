import Foundation
import NetCore

/// The transports the shared integration suite runs against, by parameter.
enum TransportKind: String, CaseIterable, CustomStringConvertible, Sendable {
    case urlSession

    func make() -> any Transport {
        switch self {
        case .urlSession: URLSessionTransport()
        }
    }

    var description: String { rawValue }
}
