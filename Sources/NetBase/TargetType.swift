import Foundation

/// Describes one endpoint of an API.
///
/// Describe an API once, usually as an enum with a case per endpoint, and hand its cases to a
/// ``Provider``. Only ``baseURL``, ``path``, ``method`` and ``content`` are required; the rest
/// have defaults.
///
/// ```swift
/// enum GitHub: TargetType {
///     case user(String)
///     var baseURL: URL { URL(string: "https://api.github.com")! }
///     var path: String { switch self { case .user(let name): "users/\(name)" } }
///     var method: HTTPMethod { .get }
///     var content: RequestContent { .plain }
/// }
/// ```
public protocol TargetType: Sendable {
    /// The server's base URL. ``ProviderConfiguration/baseURL`` overrides it when set.
    var baseURL: URL { get }
    /// The path appended to the base URL. Characters that are not allowed in a URL path
    /// (spaces, non-ASCII) are percent-encoded; a malformed `%` escape is an error.
    var path: String { get }
    /// The HTTP method.
    var method: HTTPMethod { get }
    /// What the request carries: URL query, a body, an upload or a download destination.
    var content: RequestContent { get }
    /// Headers for this target; they win over ``ProviderConfiguration/headers``. Default: none.
    var headers: [String: String] { get }
    /// The whole-request deadline; `nil` uses ``ProviderConfiguration/timeout``. Default: `nil`.
    var timeout: Duration? { get }
    /// Which status codes count as success. Default: ``Validation/successCodes`` (2xx).
    var validation: Validation { get }
    /// The response ``StubTransport`` answers with. Default: 200 with an empty body.
    var sampleResponse: SampleResponse { get }
    /// The most bytes this target's in-memory response body may have (after decompression).
    /// Default `nil`: the provider's ``ProviderConfiguration/maxResponseBytes``.
    var maxResponseBytes: Int64? { get }
    /// How urgent this target's requests are. Default ``RequestPriority/normal``.
    var priority: RequestPriority { get }
    /// The encoder of this target's `.json` bodies. Default `nil`: the provider's
    /// ``ProviderConfiguration/jsonEncoder``.
    var jsonEncoder: JSONEncoder? { get }
    /// How this target's query and form parameters are encoded. Default `nil`: the provider's
    /// ``ProviderConfiguration/parameterEncoding``.
    var parameterEncoding: ParameterEncoding? { get }
    /// The proxies for this target's requests, replacing the provider's
    /// (``ProviderConfiguration/proxy``) and the transport's; ``ProxyConfiguration/direct`` sends
    /// them without a proxy. Default `nil`: the provider's choice.
    var proxy: ProxyConfiguration? { get }
}

public extension TargetType {
    /// No extra headers by default.
    var headers: [String: String] { [:] }
    /// The provider's timeout by default.
    var timeout: Duration? { nil }
    /// 2xx by default.
    var validation: Validation { .successCodes }
    /// 200 with an empty body by default.
    var sampleResponse: SampleResponse { SampleResponse(statusCode: 200) }
    /// The provider's limit by default.
    var maxResponseBytes: Int64? { nil }
    /// The provider's encoder by default.
    var jsonEncoder: JSONEncoder? { nil }
    /// The provider's parameter encoding by default.
    var parameterEncoding: ParameterEncoding? { nil }
    /// Normal by default.
    var priority: RequestPriority { .normal }
    /// The provider's proxy choice by default.
    var proxy: ProxyConfiguration? { nil }
}

/// An HTTP request method. Use the predefined constants or any custom token.
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The method token as sent on the wire, for example `"GET"`.
    public let rawValue: String

    /// Creates a method from its token; custom tokens (`"PURGE"`) are allowed.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Creates a method from a string literal.
    public init(stringLiteral value: String) { self.rawValue = value }

    public static let get: HTTPMethod = "GET"
    public static let post: HTTPMethod = "POST"
    public static let put: HTTPMethod = "PUT"
    public static let patch: HTTPMethod = "PATCH"
    public static let delete: HTTPMethod = "DELETE"
    public static let head: HTTPMethod = "HEAD"
    public static let options: HTTPMethod = "OPTIONS"

    /// Whether repeating the request has the same effect as sending it once (RFC 9110 §9.2.2).
    public var isIdempotent: Bool {
        [HTTPMethod.get, .head, .put, .delete, .options, "TRACE"].contains(self)
    }

    public var description: String { rawValue }
}

/// Which HTTP status codes a target accepts as success.
///
/// A status the validation does not accept becomes ``NetworkError/unacceptableStatus(_:)``,
/// which keeps the whole response, body included.
public enum Validation: Sendable, Hashable {
    /// Every status is accepted.
    case none
    /// 200-299.
    case successCodes
    /// 200-399.
    case successAndRedirectCodes
    /// Exactly these codes.
    case codes(Set<Int>)
    /// `base`'s status rule, and a response `Content-Type` among `accepted`: exact
    /// (`application/json`), a type wildcard (`text/*`) or `*/*`; parameters such as `charset` are
    /// ignored. An empty list means the request's own `Accept` header. A response without a body
    /// (204, 304, `HEAD`) is not checked. See ``requiringContentType(_:)``.
    indirect case contentTypes(Validation, accepted: [String])

    /// This validation, also requiring a `Content-Type` among `accepted` (empty: the request's
    /// `Accept` header); a mismatch fails with ``NetworkError/unacceptableContentType(_:accepted:)``.
    ///
    /// ```swift
    /// var validation: Validation { .successCodes.requiringContentType(["application/json"]) }
    /// ```
    public func requiringContentType(_ accepted: [String] = []) -> Validation {
        .contentTypes(self, accepted: accepted)
    }

    /// Whether `statusCode` is accepted.
    public func accepts(_ statusCode: Int) -> Bool {
        switch self {
        case .none: true
        case .successCodes: StatusRules.isSuccess(statusCode)
        case .successAndRedirectCodes: (200...399).contains(statusCode)
        case .codes(let codes): codes.contains(statusCode)
        case .contentTypes(let base, _): base.accepts(statusCode)
        }
    }

    /// The error `response` fails this validation with, or `nil` when it passes.
    public func check(_ response: Response) -> NetworkError? {
        guard accepts(response.statusCode) else { return .unacceptableStatus(response) }
        guard case .contentTypes(let base, let listed) = self else { return nil }
        if let failure = base.check(response) { return failure }
        let bodyless = StatusRules.hasNoBody(statusCode: response.statusCode, method: response.request.method.rawValue)
        let accepted = listed.isEmpty ? ContentTypeMatch.acceptedTypes(in: response.request.headers["Accept"]) : listed
        guard !bodyless, !accepted.isEmpty else { return nil }
        return ContentTypeMatch.matches(response.headers["Content-Type"], accepted) ? nil : .unacceptableContentType(response, accepted: accepted)
    }
}

/// The canned answer ``StubTransport`` gives for a target.
public struct SampleResponse: Sendable {
    /// The status code to answer with.
    public var statusCode: Int
    /// The response headers.
    public var headers: HTTPHeaders
    /// The response body.
    public var data: Data
    /// When set, the stub fails with this error instead of answering.
    public var error: NetworkError?
    /// An error of another type the stub fails with, mapped as a real transport maps it when the
    /// request is made (see ``failure(_:)-(Error)``).
    package var failureCause: (any Error)?

    /// Creates a sample answer.
    public init(statusCode: Int = 200, headers: HTTPHeaders = [:], data: Data = Data()) {
        self.statusCode = statusCode
        self.headers = headers
        self.data = data
        self.error = nil
    }

    /// A sample that makes the stub fail with `error`, for testing error paths.
    public static func failure(_ error: NetworkError) -> SampleResponse {
        var sample = SampleResponse(statusCode: 0)
        sample.error = error
        return sample
    }

    /// A sample that makes the stub fail as a transport would on `error`: a `URLError` becomes the
    /// ``NetworkError`` URLSession's would (`.notConnectedToInternet` is
    /// ``NetworkError/connectionFailed(host:reason:underlying:)``, `.timedOut` is
    /// ``NetworkError/timedOut``), any other error ``NetworkError/transport(reason:underlying:)``,
    /// and ``NetworkError/underlyingError`` returns `error` itself wherever the case carries a cause
    /// (all but `.timedOut`, `.cancelled` and `.redirectRefused`). Moya's `.networkError` stub.
    ///
    /// ```swift
    /// var sampleResponse: SampleResponse { .failure(URLError(.notConnectedToInternet)) }
    /// ```
    public static func failure(_ error: any Error) -> SampleResponse {
        if let error = error as? NetworkError { return failure(error) }
        var sample = SampleResponse(statusCode: 0)
        sample.failureCause = error
        return sample
    }

    /// A 200 answer whose body is `json` (UTF-8) with a JSON content type.
    public static func json(_ json: String, statusCode: Int = 200) -> SampleResponse {
        SampleResponse(statusCode: statusCode, headers: ["Content-Type": "application/json"], data: Data(json.utf8))
    }
}
