import NetBase
import Foundation

/// What the pipeline does about a transport's ``TransportCapabilities``, in one place:
///
/// - ``TransportCapabilities/tlsPolicy`` missing and the request has a ``TLSPolicy``: refused
///   with ``NetworkError/tlsPolicyUnsupported(transport:host:)``; nothing is sent.
/// - ``TransportCapabilities/proxy`` missing and ``Request/proxy`` names a proxy for the URL:
///   refused with ``NetworkError/proxyFailed(proxy:reason:underlying:)``, never sent around the proxy.
/// - ``TransportCapabilities/progress`` missing: after a response, the progress handler gets
///   one final event per direction that moved bytes, completed == total, so a progress bar
///   always ends at 100 %.
/// - ``TransportCapabilities/resumableDownload`` missing: the documented fallback, no error. The
///   transport downloads the whole body and replaces the partial file.
/// - ``TransportCapabilities/cookieJar`` missing and the request has a ``Request/cookieJar``:
///   the jar is applied around the exchange (``withCookieJar(_:by:_:)``), so stubs and replays
///   get the same `Cookie` header a real first hop would, and their `Set-Cookie` is stored.
/// - ``TransportCapabilities/http2`` is information for callers; nothing depends on it.
package enum CapabilityCheck {
    /// The error for a request `transport` cannot send as asked, or `nil`.
    package static func refusal(of request: Request, by transport: any Transport) -> NetworkError? {
        if let server = request.proxy?.proxy(for: request.url), !transport.capabilities.contains(.proxy) {
            return .proxyFailed(
                proxy: server.address,
                reason: "\(String(describing: type(of: transport))) cannot send through a proxy, so nothing was sent; use CurlTransport")
        }
        guard request.tls != nil else { return nil }
        guard transport.capabilities.contains(.tlsPolicy) else {
            return .tlsPolicyUnsupported(transport: String(describing: type(of: transport)), host: request.host)
        }
        guard request.url.scheme?.lowercased() == "https" else {
            return .invalidRequest(
                target: targetDescription(request.target),
                reason: "a TLS policy (pins or trusted certificates) needs an https URL, not \(request.url.scheme ?? "one without a scheme"); nothing was sent")
        }
        return nil
    }

    /// Runs `exchange` for `request`, through the request's cookie jar when `transport` does not
    /// apply it on its hops itself.
    package static func withCookieJar(
        _ request: Request, by transport: any Transport, _ exchange: (Request) async throws -> Response
    ) async throws -> Response {
        guard request.cookieJar != nil, !transport.capabilities.contains(.cookieJar) else { return try await exchange(request) }
        return try await CookieJar.exchange(request, exchange)
    }

    /// Reports the end of the transfer to `progress` when `transport` reports no progress itself.
    package static func finishProgress(_ progress: ProgressHandler?, for response: Response, of transport: any Transport) {
        guard let progress, !transport.capabilities.contains(.progress) else { return }
        finalEvents(sent: response.request.body.contentLength ?? 0, received: receivedBytes(of: response), to: progress)
    }

    /// The last progress events of a transfer: completed equals total in each direction that
    /// moved bytes (also used by transports whose own counters stop short of the total).
    package static func finalEvents(sent: Int64, received: Int64, to progress: ProgressHandler) {
        if sent > 0 {
            progress(TransferProgress(direction: .upload, completedBytes: sent, totalBytes: sent))
        }
        if received > 0 {
            progress(TransferProgress(direction: .download, completedBytes: received, totalBytes: received))
        }
    }

    private static func receivedBytes(of response: Response) -> Int64 {
        if let fileURL = response.fileURL,
            let size = (try? FileManager.default.attributesOfItem(atPath: fileURL.path))?[.size] as? NSNumber
        {
            return size.int64Value
        }
        return Int64(response.data.count)
    }
}
