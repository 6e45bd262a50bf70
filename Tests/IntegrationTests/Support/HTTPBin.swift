import Foundation
import NetCore
import NetTestSupport

/// An httpbin-shaped API, as a user of NetKit would describe it.
enum HTTPBin: TargetType {
    case get(Parameters)
    case post(Payload)
    case form(Parameters)
    case put(Data)
    case patchFile(URL)
    case delete
    case anything(RequestContent, method: HTTPMethod)
    case multipart([MultipartPart])
    case status(Int)
    case statusAccepted(Int)
    case delay(Int, timeout: Duration)
    case bytes(Int, URL)
    case downloadPath(String, URL)
    case headers
    case basicAuth
    case path(String)

    var baseURL: URL { TestServers.httpbin ?? URL(string: "http://127.0.0.1:9")! }

    var path: String {
        switch self {
        case .get: "/get"
        case .post, .form, .multipart: "/post"
        case .put: "/put"
        case .patchFile: "/patch"
        case .delete: "/delete"
        case .anything: "/anything"
        case .status(let code), .statusAccepted(let code): "/status/\(code)"
        case .delay(let seconds, _): "/delay/\(seconds)"
        case .bytes(let count, _): "/bytes/\(count)"
        case .headers: "/headers"
        case .basicAuth: "/basic-auth/user/pass"
        case .path(let path), .downloadPath(let path, _): path
        }
    }

    var method: HTTPMethod {
        switch self {
        case .post, .form, .multipart: .post
        case .put: .put
        case .patchFile: .patch
        case .delete: .delete
        case .anything(_, let method): method
        default: .get
        }
    }

    var content: RequestContent {
        switch self {
        case .get(let parameters): .query(parameters)
        case .post(let payload): .json(payload)
        case .form(let parameters): .form(parameters)
        case .put(let data): .data(data, contentType: "application/octet-stream")
        case .patchFile(let url): .file(url, contentType: "text/plain")
        case .anything(let content, _): content
        case .multipart(let parts): .multipart(parts)
        case .bytes(_, let destination), .downloadPath(_, let destination): .download(to: destination, resumable: false)
        default: .plain
        }
    }

    var timeout: Duration? {
        switch self {
        case .delay(_, let timeout): timeout
        case .basicAuth: .seconds(5)
        default: nil
        }
    }

    var validation: Validation {
        if case .statusAccepted = self { return .none }
        return .successCodes
    }
}

struct Payload: Codable, Sendable, Equatable {
    var name: String
    var count: Int
    var tags: [String]
    var ratio: Double = 0.5
}

/// httpbin's echo shape for /get, /post, /put, /patch, /delete, /anything.
struct Echo: Decodable, Sendable {
    var args: [String: StringOrList]
    var headers: [String: String]
    var url: String
    var data: String?
    var form: [String: StringOrList]?
    var files: [String: String]?
    var json: JSONValue?
    var method: String?
}

/// httpbin reports a repeated query key as a list, a single one as a string.
enum StringOrList: Decodable, Sendable, Equatable {
    case one(String)
    case many([String])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let value = try? container.decode(String.self) { self = .one(value) } else { self = .many(try container.decode([String].self)) }
    }
}

/// Any JSON value, for comparing echoed bodies.
enum JSONValue: Decodable, Sendable, Equatable {
    case string(String), number(Double), bool(Bool), null, array([JSONValue]), object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }
}
