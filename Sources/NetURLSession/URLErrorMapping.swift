#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import Foundation
import NetBase

/// Maps URLSession's errors to ``NetworkError``.
package enum URLErrorMapping {
    /// The error for what URLSession reported; its ``NetworkError/underlyingError`` is the
    /// `URLError` (or whatever else URLSession threw) unchanged.
    package static func map(_ error: any Error, host: String) -> NetworkError {
        if let error = error as? NetworkError { return error }
        guard let urlError = error as? URLError else { return NetworkError(error) }
        return classify(urlError, host: host).causedBy(urlError)
    }

    private static func classify(_ urlError: URLError, host: String) -> NetworkError {
        switch urlError.code {
        case .cancelled: return .cancelled
        case .timedOut: return .timedOut
        case .cannotFindHost, .dnsLookupFailed: return .dnsFailure(host: host)
        case .cannotConnectToHost, .notConnectedToInternet, .internationalRoamingOff, .callIsActive, .dataNotAllowed:
            return .connectionFailed(host: host, reason: urlError.localizedDescription)
        case .networkConnectionLost: return .connectionLost(reason: urlError.localizedDescription)
        case .secureConnectionFailed, .serverCertificateHasBadDate, .serverCertificateUntrusted,
            .serverCertificateHasUnknownRoot, .serverCertificateNotYetValid, .clientCertificateRejected,
            .clientCertificateRequired:
            return .tlsFailure(host: host, reason: urlError.localizedDescription)
        case .httpTooManyRedirects, .redirectToNonExistentLocation:
            return .redirectRefused(reason: urlError.localizedDescription)
        case .badServerResponse, .cannotParseResponse, .cannotDecodeContentData, .cannotDecodeRawData, .zeroByteResource,
            .unsupportedURL:
            // The same events get the same errors as on CurlTransport: an empty reply is a lost
            // connection there, and -1002 here is libcurl's "unsupported HTTP version" (a
            // malformed status line), since NetKit checks URL schemes before sending.
            if urlError.localizedDescription.lowercased().contains("empty reply") {
                return .connectionLost(reason: "the server closed the connection without answering (\(urlError.localizedDescription))")
            }
            return .invalidResponse(reason: urlError.localizedDescription)
        default:
            // On Linux many libcurl failures arrive as code -1 with only libcurl's text.
            let text = urlError.localizedDescription.lowercased()
            if text.contains("chunk") {
                return .invalidResponse(reason: "the chunked body is malformed: \(urlError.localizedDescription)")
            }
            if text.contains("too large response headers") {
                // libcurl's own bound on a response's header bytes (interim heads included): the
                // same class of error as CurlTransport's maxHeaderBytes.
                return .invalidResponse(reason: "the response headers are larger than FoundationNetworking's limit (\(urlError.localizedDescription))")
            }
            if text.contains("out of memory") {
                return .invalidResponse(reason: "a response header line is larger than the headers limit (libcurl accepts 100 KiB per line)")
            }
            if text.contains("ssl") || text.contains("certificate") || text.contains("tls") {
                return .tlsFailure(host: host, reason: urlError.localizedDescription)
            }
            if text.contains("transfer closed with") {
                return .truncatedResponse(expected: nil, received: nil)
            }
            if text.contains("unencoding") || text.contains("decompress") {
                return .invalidResponse(reason: "the compressed body is corrupt (\(urlError.localizedDescription))")
            }
            if text.contains("connection reset") || text.contains("recv failure") || text.contains("send failure") {
                return .connectionLost(reason: urlError.localizedDescription)
            }
            return .transport(reason: "\(urlError.localizedDescription) (URLError \(urlError.code.rawValue))")
        }
    }
}
