extension NetworkError {
    /// This error as the final error of a call that made `attempts` attempts: when there was more
    /// than one, the cases with a `reason` end it with "(after N attempts)", so the description says
    /// how often the call was tried. The cases that carry a ``Response`` say it from
    /// ``Request/attempt`` of the response's request; the others (``timedOut``, ``dnsFailure(host:underlying:)``,
    /// ``cancelled``, …) have no room for it and are returned unchanged.
    package func afterAttempts(_ attempts: Int) -> NetworkError {
        guard attempts > 1 else { return self }
        let note = " (after \(attempts) attempts)"
        return switch self {
        case .encodingFailed(let target, let reason, let underlying):
            .encodingFailed(target: target, reason: reason + note, underlying: underlying)
        case .unreadableFile(let target, let url, let reason, let underlying):
            .unreadableFile(target: target, url: url, reason: reason + note, underlying: underlying)
        case .invalidRequest(let target, let reason): .invalidRequest(target: target, reason: reason + note)
        case .connectionFailed(let host, let reason, let underlying):
            .connectionFailed(host: host, reason: reason + note, underlying: underlying)
        case .proxyFailed(let proxy, let reason, let underlying): .proxyFailed(proxy: proxy, reason: reason + note, underlying: underlying)
        case .tlsFailure(let host, let reason, let underlying): .tlsFailure(host: host, reason: reason + note, underlying: underlying)
        case .connectionLost(let reason, let underlying): .connectionLost(reason: reason + note, underlying: underlying)
        case .invalidResponse(let reason, let underlying): .invalidResponse(reason: reason + note, underlying: underlying)
        case .redirectRefused(let reason): .redirectRefused(reason: reason + note)
        case .fileSystem(let reason, let underlying): .fileSystem(reason: reason + note, underlying: underlying)
        case .transport(let reason, let underlying): .transport(reason: reason + note, underlying: underlying)
        case .stopped(let plugin, let reason): .stopped(plugin: plugin, reason: reason + note)
        case .pluginFailed(let plugin, let reason, let underlying): .pluginFailed(plugin: plugin, reason: reason + note, underlying: underlying)
        default: self
        }
    }

    /// " after N attempts" for an error about `response` when its request was not the first attempt.
    static func attemptsNote(_ response: Response) -> String {
        response.request.attempt > 1 ? " after \(response.request.attempt) attempts" : ""
    }
}
