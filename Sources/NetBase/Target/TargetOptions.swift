import Foundation

/// A target's optional settings, in one place: each `nil` (or `.normal`) takes the provider's
/// choice. Return them from ``TargetType/options``:
///
/// ```swift
/// var options: TargetOptions {
///     switch self {
///     case .export: TargetOptions(maxResponseBytes: 512 << 20, priority: .low)
///     default: TargetOptions()
///     }
/// }
/// ```
///
/// | Option | Default | What it sets |
/// |---|---|---|
/// | `maxResponseBytes` | ``ProviderConfiguration/maxResponseBytes`` | the most bytes an in-memory body may have (after decompression) |
/// | `priority` | ``RequestPriority/normal`` | batch start order and the HTTP/2 stream weight |
/// | `jsonEncoder` | ``ProviderConfiguration/jsonEncoder`` | the encoder of `.json` bodies |
/// | `parameterEncoding` | ``ProviderConfiguration/parameterEncoding`` | how query and form parameters are written |
/// | `proxy` | ``ProviderConfiguration/proxy``, then the transport's | the proxies; ``ProxyConfiguration/direct`` for none |
public struct TargetOptions: Sendable {
    /// The most bytes the in-memory response body may have; `nil`: the provider's limit.
    public var maxResponseBytes: Int64?
    /// How urgent the requests are.
    public var priority: RequestPriority
    /// The encoder of `.json` bodies; `nil`: the provider's.
    public var jsonEncoder: JSONEncoder?
    /// How query and form parameters are encoded; `nil`: the provider's.
    public var parameterEncoding: ParameterEncoding?
    /// The proxies, replacing the provider's and the transport's; `nil`: the provider's choice.
    public var proxy: ProxyConfiguration?

    /// Creates options; every default takes the provider's choice.
    public init(
        maxResponseBytes: Int64? = nil, priority: RequestPriority = .normal, jsonEncoder: JSONEncoder? = nil,
        parameterEncoding: ParameterEncoding? = nil, proxy: ProxyConfiguration? = nil
    ) {
        self.maxResponseBytes = maxResponseBytes
        self.priority = priority
        self.jsonEncoder = jsonEncoder
        self.parameterEncoding = parameterEncoding
        self.proxy = proxy
    }
}

package extension TargetType {
    /// ``TargetOptions/maxResponseBytes`` of ``TargetType/options``.
    var maxResponseBytes: Int64? { options.maxResponseBytes }
    /// ``TargetOptions/priority`` of ``TargetType/options``.
    var priority: RequestPriority { options.priority }
    /// ``TargetOptions/jsonEncoder`` of ``TargetType/options``.
    var jsonEncoder: JSONEncoder? { options.jsonEncoder }
    /// ``TargetOptions/parameterEncoding`` of ``TargetType/options``.
    var parameterEncoding: ParameterEncoding? { options.parameterEncoding }
    /// ``TargetOptions/proxy`` of ``TargetType/options``.
    var proxy: ProxyConfiguration? { options.proxy }
}
