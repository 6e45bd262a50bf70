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
