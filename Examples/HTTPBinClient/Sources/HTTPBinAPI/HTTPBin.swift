import Foundation
import NetCore

/// The httpbin API, described once. Every call of the app is one of these cases.
public enum HTTPBin: TargetType {
    /// `GET /get?…`: echoes the query in `args`.
    case get(Parameters)
    /// `POST /post` with a JSON body: echoes it in `json`.
    case post(Payload)
    /// `GET /status/<code>`: answers with that status.
    case status(Int)
    /// `POST /anything/members`: echoes the new member in `json`.
    case register(name: String)
    /// `GET /anything/members/<id>`.
    case member(id: String)
    /// `GET /bytes/<count>` saved to a file.
    case bytes(Int, to: URL)
    /// `GET /stream/<lines>`: one JSON object per line, written as they are ready.
    case stream(lines: Int)

    /// The public httpbin; the app points a provider at a local one with
    /// `ProviderConfiguration(baseURL:)`.
    public var baseURL: URL { URL(string: "https://httpbin.org")! }

    public var path: String {
        switch self {
        case .get: "/get"
        case .post: "/post"
        case .status(let code): "/status/\(code)"
        case .register: "/anything/members"
        case .member(let id): "/anything/members/\(id)"
        case .bytes(let count, _): "/bytes/\(count)"
        case .stream(let lines): "/stream/\(lines)"
        }
    }

    public var method: HTTPMethod {
        switch self {
        case .post, .register: .post
        default: .get
        }
    }

    public var content: RequestContent {
        switch self {
        case .get(let parameters): .query(parameters)
        case .post(let payload): .json(payload)
        case .register(let name): .json(["name": name, "id": "m-\(name)"])
        case .bytes(_, let file): .download(to: file, resumable: false)
        case .status, .member, .stream: .plain
        }
    }

    /// What `StubTransport` answers in tests: httpbin's shape, without a server.
    public var sampleResponse: SampleResponse {
        switch self {
        case .get: .json(#"{"args": {"q": "swift"}}"#)
        case .post(let payload): .json(#"{"json": {"name": "\#(payload.name)", "count": \#(payload.count)}}"#)
        case .status(let code): SampleResponse(statusCode: code)
        case .register(let name): .json(#"{"json": {"name": "\#(name)", "id": "m-\#(name)"}}"#)
        case .member(let id): .json(#"{"url": "https://httpbin.org/anything/members/\#(id)"}"#)
        case .bytes(let count, _): SampleResponse(data: Data(repeating: 7, count: count))
        case .stream: .json(#"{"id": 0}"# + "\n" + #"{"id": 1}"# + "\n")
        }
    }
}
