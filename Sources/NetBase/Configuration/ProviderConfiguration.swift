import NetToolbox
import Foundation

/// Settings shared by every request of a ``Provider``: the base URL, headers and query parameters
/// added to every call, timeouts, attempts, validation and parameter encoding.
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
    /// The deadline of a whole call when the target sets none: every attempt, every redirect and
    /// every retry wait must fit inside it (a retry whose wait would pass it is not started).
    /// Default: 60 s.
    public var timeout: Duration
    /// An optional limit for each single attempt, inside the call's ``timeout``. Default: `nil`
    /// (an attempt may use whatever is left of the call's deadline).
    public var attemptTimeout: Duration?
    /// The most bytes an in-memory response body may have, counted after decompression while it
    /// arrives; a larger one fails with ``NetworkError/responseTooLarge(limit:)``. `nil` means no
    /// limit. Default: 64 MiB. Targets may override it with ``TargetOptions/maxResponseBytes``.
    public var maxResponseBytes: Int64?
    /// The most bytes a download written to disk may have. Default: `nil` (no limit).
    public var maxDownloadBytes: Int64?
    /// The most bytes all header lines of one response may have together. Default: 256 KiB.
    public var maxHeaderBytes: Int
    /// The most attempts one call makes when plugins ask to retry. Default: 3.
    public var maxAttempts: Int
    /// Encodes ``RequestContent/json(_:)`` bodies.
    public var jsonEncoder: JSONEncoder
    /// Decodes ``Provider/request(_:as:atKeyPath:)`` results.
    public var jsonDecoder: JSONDecoder
    /// How query and form parameters are written.
    public var parameterEncoding: ParameterEncoding
    /// Rewrites a target's ``TargetType/content`` for this provider before it is encoded, as
    /// Moya's `endpointClosure` replaced an endpoint's task: add a multipart part or a query
    /// parameter to every request, or send one target's content differently. It receives the
    /// target's content and the target (the wrapped one for an ``AnyTarget``), runs for every
    /// attempt and for ``Provider/buildRequest(_:)``, and must not block. Default `nil`: every
    /// target's own content.
    ///
    /// ```swift
    /// configuration.contentTransform = { content, _ in
    ///     guard case .multipart(let parts) = content else { return content }
    ///     return .multipart(parts + [MultipartPart(name: "device", value: deviceID)])
    /// }
    /// ```
    public var contentTransform: (@Sendable (RequestContent, any TargetType) -> RequestContent)?
    /// The validation for targets that keep the protocol's default, ``Validation/successCodes``;
    /// `nil` (the default) leaves every target's own. A Moya target that never declared a
    /// `validationType` accepts every status, so a migrated provider keeps that with one line:
    /// `configuration.defaultValidation = Validation.none`. A target that must stay 2xx-only under
    /// such a provider says so with `.codes(Set(200...299))`; any other declared validation is kept.
    public var defaultValidation: Validation?
    /// The proxies for this provider's requests, replacing the transport's own configuration
    /// (so a shared ``DefaultTransport`` can be used with a proxy); a target's
    /// ``TargetOptions/proxy`` wins over it. Default `nil`: the transport decides (`CurlTransport`:
    /// no proxy unless configured). Only `CurlTransport` sends through proxies; `URLSessionTransport`
    /// fails such requests closed with ``NetworkError/proxyFailed(proxy:reason:underlying:)``.
    public var proxy: ProxyConfiguration?
    /// Where ``Provider/send(_:callbackQueue:completion:)`` calls its completion handler
    /// (`.main` for UI code). Default `nil`: on the task that ran the call, as soon as it ends.
    public var callbackQueue: DispatchQueue?
    /// The cookie jar every request of this provider reads from and stores into, on every
    /// redirect hop (see ``CookieJar``). Default `nil`: no cookie is kept, and only a `Cookie`
    /// header you set is sent. Opt in with `configuration.cookieJar = CookieJar()`.
    public var cookieJar: CookieJar?
    /// Who sees every call's ``NetworkEvent``s (started, attempts, retries, redirects, cache
    /// decisions, outcomes, ended). Default: none, and then no event is made. Plugins that conform
    /// to ``NetworkEventObserver`` are added by the provider.
    public var eventObservers: [any NetworkEventObserver] = []

    /// The clock deadlines and retry waits run on (tests inject one that moves by hand).
    package var clock: any NetClock = SystemClock()
    /// The observers a package-trait integration installs (`logger`, `metrics`), by integration
    /// name, so that setting one again replaces it.
    package var integrationObservers: [String: IntegrationObserver] = [:]

    /// Creates a configuration; every argument has a default.
    public init(
        baseURL: URL? = nil, headers: [String: String] = [:], queryParameters: Parameters = [:],
        timeout: Duration = .seconds(60), maxAttempts: Int = 3, jsonEncoder: JSONEncoder = JSONEncoder(),
        jsonDecoder: JSONDecoder = JSONDecoder(), parameterEncoding: ParameterEncoding = ParameterEncoding(),
        attemptTimeout: Duration? = nil, maxResponseBytes: Int64? = ProviderConfiguration.defaultMaxResponseBytes,
        maxDownloadBytes: Int64? = nil, maxHeaderBytes: Int = ProviderConfiguration.defaultMaxHeaderBytes,
        proxy: ProxyConfiguration? = nil, callbackQueue: DispatchQueue? = nil, cookieJar: CookieJar? = nil
    ) {
        self.baseURL = baseURL
        self.headers = headers
        self.queryParameters = queryParameters
        self.timeout = timeout
        self.maxAttempts = max(1, maxAttempts)
        self.jsonEncoder = jsonEncoder
        self.jsonDecoder = jsonDecoder
        self.parameterEncoding = parameterEncoding
        self.attemptTimeout = attemptTimeout
        self.maxResponseBytes = maxResponseBytes
        self.maxDownloadBytes = maxDownloadBytes
        self.maxHeaderBytes = maxHeaderBytes
        self.proxy = proxy
        self.callbackQueue = callbackQueue
        self.cookieJar = cookieJar
    }

    /// The default ``maxResponseBytes``: 64 MiB.
    public static let defaultMaxResponseBytes: Int64 = 64 << 20
    /// The default ``maxHeaderBytes``: 256 KiB.
    public static let defaultMaxHeaderBytes = 256 << 10
}

extension ProviderConfiguration {
    /// The validation `target`'s responses get under this configuration (see ``defaultValidation``).
    package func validation(for target: any TargetType) -> Validation {
        let own = target.validation
        guard let defaultValidation, own == .successCodes else { return own }
        return defaultValidation
    }
}
