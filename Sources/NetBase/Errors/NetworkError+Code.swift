extension NetworkError {
    /// Which case a ``NetworkError`` is, without its values: a stable thing to switch over, count,
    /// log or keep in a set.
    ///
    /// New codes may appear in minor versions (as new cases may), so a `switch` over codes needs a
    /// `default`.
    public enum Code: String, Hashable, CaseIterable, Sendable {
        case invalidURL, encodingFailed, unreadableFile, invalidRequest
        case connectionFailed, proxyFailed, dnsFailure, timedOut, tlsFailure, pinningFailed, tlsPolicyUnsupported
        case connectionLost, truncatedResponse, invalidResponse, redirectRefused, responseTooLarge, fileSystem, transport
        case unacceptableStatus, unacceptableContentType, decodingFailed, businessCode
        case cancelled, stopped, noCachedResponse, pluginFailed
    }

    /// The case of this error, without its values.
    public var code: Code {
        switch self {
        case .invalidURL: .invalidURL
        case .encodingFailed: .encodingFailed
        case .unreadableFile: .unreadableFile
        case .invalidRequest: .invalidRequest
        case .connectionFailed: .connectionFailed
        case .proxyFailed: .proxyFailed
        case .dnsFailure: .dnsFailure
        case .timedOut: .timedOut
        case .tlsFailure: .tlsFailure
        case .pinningFailed: .pinningFailed
        case .tlsPolicyUnsupported: .tlsPolicyUnsupported
        case .connectionLost: .connectionLost
        case .truncatedResponse: .truncatedResponse
        case .invalidResponse: .invalidResponse
        case .redirectRefused: .redirectRefused
        case .responseTooLarge: .responseTooLarge
        case .fileSystem: .fileSystem
        case .transport: .transport
        case .unacceptableStatus: .unacceptableStatus
        case .unacceptableContentType: .unacceptableContentType
        case .decodingFailed: .decodingFailed
        case .businessCode: .businessCode
        case .cancelled: .cancelled
        case .stopped: .stopped
        case .noCachedResponse: .noCachedResponse
        case .pluginFailed: .pluginFailed
        }
    }
}
