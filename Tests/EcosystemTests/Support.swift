import Foundation
import NetCore
import NetTestSupport
import Testing

/// The httpbin endpoints the trait-gated suites call.
enum Bin: TargetType {
    case get(Parameters)
    case status(Int)
    case headers
    case cache

    var baseURL: URL { TestServers.httpbin ?? URL(string: "http://127.0.0.1:9")! }
    var path: String {
        switch self {
        case .get: "/get"
        case .status(let code): "/status/\(code)"
        case .headers: "/headers"
        case .cache: "/cache"
        }
    }
    var method: HTTPMethod { .get }
    var content: RequestContent {
        if case .get(let parameters) = self { return .query(parameters) }
        return .plain
    }
}

/// The live httpbin's URL, or a recorded failure (under scripts/test) naming the variable.
func requireHTTPBin() throws -> URL {
    try TestServers.require("NETKIT_HTTPBIN_URL")
}
