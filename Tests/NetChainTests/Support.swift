import NetToolbox
import Foundation
import NetCore

/// A small account API answered by `StubTransport`.
enum API: TargetType, Equatable {
    case register(name: String)
    case profile(id: String)
    case avatar(id: String)
    case friend(Int)
    case summary(friends: Int)
    case broken

    var baseURL: URL { URL(string: "https://accounts.test")! }
    var path: String {
        switch self {
        case .register: "register"
        case .profile(let id): "users/\(id)"
        case .avatar(let id): "users/\(id)/avatar"
        case .friend(let n): "friends/\(n)"
        case .summary: "summary"
        case .broken: "broken"
        }
    }
    var method: HTTPMethod { if case .register = self { .post } else { .get } }
    var content: RequestContent {
        switch self {
        case .register(let name): .json(["name": name])
        case .summary(let friends): .query(["friends": friends])
        default: .plain
        }
    }
    var sampleResponse: SampleResponse {
        switch self {
        case .register: .json(#"{"id": "u-42", "friends": [1, 2, 3]}"#)
        case .profile(let id): .json(#"{"id": "\#(id)", "name": "Ada", "hasAvatar": true}"#)
        case .avatar: SampleResponse(statusCode: 200, data: Data([0x89, 0x50]))
        case .friend(let n): .json(#"{"name": "friend \#(n)"}"#)
        case .summary(let friends): .json(#"{"friends": \#(friends)}"#)
        case .broken: .json(#"{"error": "down"}"#, statusCode: 500)
        }
    }
}

struct Account: Decodable { var id: String; var friends: [Int] }
struct Profile: Decodable { var id: String; var name: String; var hasAvatar: Bool }
struct Friend: Decodable { var name: String }

/// Records the path of every request the provider sends.
final class PathRecorder: Plugin {
    private let paths = Locked<[String]>([])
    var sent: [String] { paths.withLock { $0 } }
    func willSend(_ request: Request) async -> SendAction {
        paths.withLock { $0.append(request.url.path) }
        return .proceed
    }
}

struct StepFailure: Error, CustomStringConvertible {
    var description: String { "the step gave up" }
}
