import NetToolbox
import Foundation

/// What NetKit's own transports do while a response arrives, done afterwards for a transport
/// that is not NetKit's own (a custom ``Transport`` cannot see ``Request/limits`` or
/// ``Request/download``): a body past the request's limit fails, and a download answered in
/// memory is written to its destination.
package enum CustomTransportResponse {
    /// Whether `transport` enforces limits and writes downloads itself
    /// (``StreamingTransport/enforcesLimitsAndDownloads``).
    package static func isEnforced(by transport: any Transport) -> Bool {
        (transport as? any StreamingTransport)?.enforcesLimitsAndDownloads ?? false
    }

    /// `response` checked against `request`'s limits, with a 2xx download body written to its
    /// destination; unchanged when the transport does both itself (`enforcedByTransport`, what
    /// ``isEnforced(by:)`` said of it). Checking again what a transport already enforced changes
    /// nothing, so a wrapper of a user's own over a built-in transport is safe too.
    package static func completed(
        _ response: Response, for request: Request, enforcedByTransport: Bool
    ) throws(NetworkError) -> Response {
        guard !enforcedByTransport else { return response }
        try checkLimits(response, for: request)
        var completed = response
        if let download = request.download, completed.fileURL == nil {
            try completed.storeDownload(at: download)
        }
        return completed
    }

    /// Fails with ``NetworkError/responseTooLarge(limit:)``, as the built-in transports do, when
    /// `response`'s in-memory body is larger than `request` allows: the download limit for a
    /// 2xx body of a download, the body limit otherwise.
    package static func checkLimits(_ response: Response, for request: Request) throws(NetworkError) {
        let isDownload = request.download != nil && StatusRules.isSuccess(response.statusCode)
        guard let limit = request.limits.bodyLimit(forDownload: isDownload), Int64(response.data.count) > limit else { return }
        throw .responseTooLarge(limit: limit)
    }
}
