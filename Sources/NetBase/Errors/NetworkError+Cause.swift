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
        guard case .room(let cause, _) = causeSlot else { return nil }
        return cause
    }

    /// This error with `cause` as its ``underlyingError``, where the case can carry one and has
    /// none yet; other errors are returned unchanged.
    package func causedBy(_ cause: any Error) -> NetworkError {
        guard case .room(.none, let replacing) = causeSlot else { return self }
        return replacing(cause)
    }

    /// Whether a case has room for an ``underlyingError``: the cause it holds and the same error
    /// with another cause.
    private enum CauseSlot {
        case noRoom
        case room((any Error)?, replacing: (any Error) -> NetworkError)
    }

    /// The one switch that knows which cases carry a cause (no `default`: a new case must say).
    private var causeSlot: CauseSlot {
        switch self {
        case .invalidURL, .invalidRequest, .timedOut, .pinningFailed, .tlsPolicyUnsupported, .truncatedResponse, .redirectRefused,
            .responseTooLarge, .unacceptableStatus, .unacceptableContentType, .businessCode, .cancelled, .stopped, .noCachedResponse:
            .noRoom
        case .encodingFailed(let target, let reason, let underlying):
            .room(underlying) { .encodingFailed(target: target, reason: reason, underlying: $0) }
        case .unreadableFile(let target, let url, let reason, let underlying):
            .room(underlying) { .unreadableFile(target: target, url: url, reason: reason, underlying: $0) }
        case .connectionFailed(let host, let reason, let underlying):
            .room(underlying) { .connectionFailed(host: host, reason: reason, underlying: $0) }
        case .proxyFailed(let proxy, let reason, let underlying):
            .room(underlying) { .proxyFailed(proxy: proxy, reason: reason, underlying: $0) }
        case .dnsFailure(let host, let underlying):
            .room(underlying) { .dnsFailure(host: host, underlying: $0) }
        case .tlsFailure(let host, let reason, let underlying):
            .room(underlying) { .tlsFailure(host: host, reason: reason, underlying: $0) }
        case .connectionLost(let reason, let underlying):
            .room(underlying) { .connectionLost(reason: reason, underlying: $0) }
        case .invalidResponse(let reason, let underlying):
            .room(underlying) { .invalidResponse(reason: reason, underlying: $0) }
        case .fileSystem(let reason, let underlying):
            .room(underlying) { .fileSystem(reason: reason, underlying: $0) }
        case .transport(let reason, let underlying):
            .room(underlying) { .transport(reason: reason, underlying: $0) }
        case .decodingFailed(let type, let keyPath, let reason, let excerpt, let response, let underlying):
            .room(underlying) {
                .decodingFailed(type: type, keyPath: keyPath, reason: reason, bodyExcerpt: excerpt, response: response, underlying: $0)
            }
        case .pluginFailed(let plugin, let reason, let underlying):
            .room(underlying) { .pluginFailed(plugin: plugin, reason: reason, underlying: $0) }
        }
    }
}
