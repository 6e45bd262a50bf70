import Foundation
import NetCore

/// The demo's API: an httpbin-shaped service, described once.
enum DemoAPI: TargetType {
    case echo(Parameters)
    case status(Int)
    case upload(Data)
    case drip(bytes: Int, seconds: Double, to: URL)
    case register(name: String)
    case profile(id: String)
    case item(Int)
    case secure
    case stream(Int)

    /// The public httpbin; the demo points every provider at its local server with
    /// `ProviderConfiguration(baseURL:)`.
    var baseURL: URL { URL(string: "https://httpbin.org")! }

    var path: String {
        switch self {
        case .echo: "/get"
        case .status(let code): "/status/\(code)"
        case .upload: "/post"
        case .drip: "/drip"
        case .register: "/anything/register"
        case .profile(let id): "/anything/users/\(id)"
        case .item(let index): "/anything/items/\(index)"
        case .secure: "/small.json"
        case .stream(let lines): "/stream/\(lines)"
        }
    }

    var method: HTTPMethod {
        switch self {
        case .upload, .register: .post
        default: .get
        }
    }

    var content: RequestContent {
        switch self {
        case .echo(let parameters): .query(parameters)
        case .upload(let data): .data(data, contentType: "application/octet-stream")
        case .drip(let bytes, let seconds, let file):
            .download(to: file, resumable: false).addingQuery(["numbytes": bytes, "duration": seconds, "delay": 0])
        case .register(let name): .json(["name": name, "id": "u-\(name.count * 7919)"])
        default: .plain
        }
    }

    /// What `StubTransport` answers when no httpbin is available.
    var sampleResponse: SampleResponse {
        switch self {
        case .echo(let parameters):
            let args = parameters.map { "\"\($0.key)\": \"\(Self.text(of: $0.value))\"" }
            return .json(#"{"args": {\#(args.joined(separator: ", "))}, "url": "stub"}"#)
        case .status(let code): return SampleResponse(statusCode: code)
        case .register(let name): return .json(#"{"json": {"name": "\#(name)", "id": "u-\#(name.count * 7919)"}}"#)
        case .profile(let id): return .json(#"{"url": "stub/users/\#(id)"}"#)
        case .drip(let bytes, _, _): return SampleResponse(data: Data(repeating: 42, count: bytes))
        case .stream(let lines):
            return SampleResponse(data: Data((0..<lines).map { #"{"id": \#($0), "url": "stub/stream"}"# + "\n" }.joined().utf8))
        default: return .json("{}")
        }
    }
}

extension DemoAPI {
    /// A scalar parameter as httpbin would echo it.
    static func text(of value: ParameterValue) -> String {
        switch value {
        case .string(let string): string
        case .int(let int): String(int)
        case .double(let double): String(double)
        case .bool(let bool): String(bool)
        case .null, .array, .dictionary: ""
        }
    }
}

/// httpbin's echo of query arguments.
struct Echo: Decodable {
    var args: [String: String]
}
