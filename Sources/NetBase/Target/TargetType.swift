import Foundation

/// Describes one endpoint of an API.
///
/// Describe an API once, usually as an enum with a case per endpoint, and hand its cases to a
/// ``Provider``. Only ``baseURL``, ``path``, ``method`` and ``content`` are required; the rest
/// have defaults: ``headers``, ``timeout``, ``validation``, ``sampleResponse`` and ``options``
/// (``TargetOptions``: size limit, priority, JSON encoder, parameter encoding, proxy).
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
    /// The optional settings (response size limit, priority, JSON encoder, parameter encoding,
    /// proxy), all in one value. Default: `TargetOptions()`, the provider's choices.
    var options: TargetOptions { get }
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
    /// The provider's choices by default.
    var options: TargetOptions { TargetOptions() }
}
