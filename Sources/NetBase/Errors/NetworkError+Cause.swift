extension NetworkError {
    /// The error this failure came from, unchanged, or `nil` when NetKit itself detected it.
    ///
    /// What a plugin threw (``pluginFailed(plugin:reason:underlying:)``), what a stub or a custom
    /// transport threw (usually ``transport(reason:underlying:)``), the `DecodingError` of
    /// ``decodingFailed(type:keyPath:reason:bodyExcerpt:response:underlying:)``, the `EncodingError`
    /// of a JSON body, URLSession's `URLError`, libcurl's ``CurlError``, a file-system error.
    ///
    /// ```swift
    /// if let urlError = error.underlyingError as? URLError, urlError.code == .notConnectedToInternet { showOffline() }
    /// ```
    public var underlyingError: (any Error)? {
        switch self {
        case .encodingFailed(_, _, let underlying), .unreadableFile(_, _, _, let underlying),
            .connectionFailed(_, _, let underlying), .proxyFailed(_, _, let underlying), .dnsFailure(_, let underlying),
            .tlsFailure(_, _, let underlying), .connectionLost(_, let underlying), .invalidResponse(_, let underlying),
            .fileSystem(_, let underlying), .transport(_, let underlying), .decodingFailed(_, _, _, _, _, let underlying),
            .pluginFailed(_, _, let underlying):
            underlying
        default:
            nil
        }
    }
}

extension NetworkError {
    /// This error with `cause` as its ``underlyingError``, where the case can carry one and has
    /// none yet; other errors are returned unchanged.
    package func causedBy(_ cause: any Error) -> NetworkError {
        switch self {
        case .encodingFailed(let target, let reason, .none): .encodingFailed(target: target, reason: reason, underlying: cause)
        case .unreadableFile(let target, let url, let reason, .none): .unreadableFile(target: target, url: url, reason: reason, underlying: cause)
        case .connectionFailed(let host, let reason, .none): .connectionFailed(host: host, reason: reason, underlying: cause)
        case .proxyFailed(let proxy, let reason, .none): .proxyFailed(proxy: proxy, reason: reason, underlying: cause)
        case .dnsFailure(let host, .none): .dnsFailure(host: host, underlying: cause)
        case .tlsFailure(let host, let reason, .none): .tlsFailure(host: host, reason: reason, underlying: cause)
        case .connectionLost(let reason, .none): .connectionLost(reason: reason, underlying: cause)
        case .invalidResponse(let reason, .none): .invalidResponse(reason: reason, underlying: cause)
        case .fileSystem(let reason, .none): .fileSystem(reason: reason, underlying: cause)
        case .transport(let reason, .none): .transport(reason: reason, underlying: cause)
        case .pluginFailed(let plugin, let reason, .none): .pluginFailed(plugin: plugin, reason: reason, underlying: cause)
        case .decodingFailed(let type, let keyPath, let reason, let excerpt, let response, .none):
            .decodingFailed(type: type, keyPath: keyPath, reason: reason, bodyExcerpt: excerpt, response: response, underlying: cause)
        default: self
        }
    }
}
