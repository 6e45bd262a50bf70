import Foundation

/// Settings shared by every request of a ``Provider`` (XMNetworking's general server, headers and
/// parameters).
///
/// ```swift
/// let configuration = ProviderConfiguration(baseURL: URL(string: "https://staging.example.com"),
///                                           headers: ["X-App": "1"], queryParameters: ["v": "2"],
///                                           timeout: .seconds(30), maxAttempts: 3)
/// ```
public struct ProviderConfiguration: Sendable {
    /// Replaces every target's ``TargetType/baseURL`` when set (staging servers, tests).
    public var baseURL: URL?
    /// Headers for every request; a target's own headers win.
    public var headers: [String: String]
    /// Query parameters for every request; a target's parameters with the same name win.
    public var queryParameters: Parameters
    /// The whole-request deadline when the target sets none. Default: 60 s.
    public var timeout: Duration
    /// The most attempts one call makes when plugins ask to retry. Default: 3.
    public var maxAttempts: Int
    /// Encodes ``RequestContent/json(_:)`` bodies.
    public var jsonEncoder: JSONEncoder
    /// Decodes ``Provider/request(_:as:atKeyPath:)`` results.
    public var jsonDecoder: JSONDecoder
    /// How query and form parameters are written.
    public var parameterEncoding: ParameterEncoding

    /// Creates a configuration; every argument has a default.
    public init(
        baseURL: URL? = nil, headers: [String: String] = [:], queryParameters: Parameters = [:],
        timeout: Duration = .seconds(60), maxAttempts: Int = 3, jsonEncoder: JSONEncoder = JSONEncoder(),
        jsonDecoder: JSONDecoder = JSONDecoder(), parameterEncoding: ParameterEncoding = ParameterEncoding()
    ) {
        self.baseURL = baseURL
        self.headers = headers
        self.queryParameters = queryParameters
        self.timeout = timeout
        self.maxAttempts = max(1, maxAttempts)
        self.jsonEncoder = jsonEncoder
        self.jsonDecoder = jsonDecoder
        self.parameterEncoding = parameterEncoding
    }
}
