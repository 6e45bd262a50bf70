import NetBase
import Foundation

/// Why an exchange was stopped before URLSession finished it.
enum ExchangeStopReason: Sendable, CustomStringConvertible {
    case cancelled
    case timedOut
    /// The response broke a rule while arriving (too large, conflicting lengths).
    case failed(NetworkError)

    /// The error the caller or the stream's reader gets.
    var error: NetworkError {
        switch self {
        case .cancelled: .cancelled
        case .timedOut: .timedOut
        case .failed(let error): error
        }
    }

    var description: String {
        switch self {
        case .cancelled: "cancelled"
        case .timedOut: "timedOut"
        case .failed(let error): "failed(\(error))"
        }
    }
}
