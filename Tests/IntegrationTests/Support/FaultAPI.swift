import Foundation
import NetCore
import NetTestSupport

/// The fault server's endpoints (scripts/fault_server.py).
struct FaultTarget: TargetType, CustomStringConvertible {
    var path: String
    var query: Parameters = [:]
    var method: HTTPMethod = .get
    var timeout: Duration? = .seconds(2)
    var headers: [String: String] = [:]
    var base: URL? = nil
    var validationOverride: Validation? = nil

    var baseURL: URL { base ?? TestServers.fault ?? URL(string: "http://127.0.0.1:9")! }
    var content: RequestContent { query.isEmpty ? .plain : .query(query) }
    var validation: Validation { validationOverride ?? .successCodes }
    var description: String { path }
}

/// The error cases a fault may end in, without their payloads.
enum ErrorKind: String, Sendable, CustomStringConvertible {
    case connectionFailed, connectionLost, truncatedResponse, timedOut, invalidResponse, redirectRefused
    case decodingFailed, unacceptableStatus, other

    init(_ error: NetworkError) {
        switch error {
        case .connectionFailed: self = .connectionFailed
        case .connectionLost: self = .connectionLost
        case .truncatedResponse: self = .truncatedResponse
        case .timedOut: self = .timedOut
        case .invalidResponse: self = .invalidResponse
        case .redirectRefused: self = .redirectRefused
        case .decodingFailed: self = .decodingFailed
        case .unacceptableStatus: self = .unacceptableStatus
        default: self = .other
        }
    }

    var description: String { rawValue }
}
