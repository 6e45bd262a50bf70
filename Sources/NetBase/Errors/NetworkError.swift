import NetRedaction
import Foundation

/// Every way a NetKit request can fail. Each case's ``description`` says what failed and what to do.
///
/// Match the cases you handle and keep a `default` (new cases may come in minor versions), or
/// switch over ``code``, a payload-free mirror of the cases. Where a failure came from another
/// error (a `DecodingError`, a `URLError`, libcurl's ``CurlError``, a file-system error, what a
/// plugin or a stub threw), ``underlyingError`` returns it unchanged; the cases that can carry one
/// end with an `underlying` value, so a pattern binds it or skips it with `_`:
///
/// ```swift
/// switch error {
/// case .decodingFailed(let type, _, _, _, let response, _): print(type, response?.statusCode ?? 0)
/// case .transport(let reason, _): print(reason)
/// default: print(error.code)
/// }
/// ```
public enum NetworkError: Error, Sendable, CustomStringConvertible, LocalizedError {
    // MARK: Building the request (nothing was sent)

    /// The target's base URL and path make no valid URL.
    case invalidURL(target: String, reason: String)
    /// A body or parameter could not be encoded (for example `Double.nan` in JSON).
    case encodingFailed(target: String, reason: String, underlying: (any Error)? = nil)
    /// A file to upload is missing or unreadable.
    case unreadableFile(target: String, url: URL, reason: String, underlying: (any Error)? = nil)
    /// The request is malformed in another way.
    case invalidRequest(target: String, reason: String)

    // MARK: Transport

    /// No connection could be made (refused, unreachable).
    case connectionFailed(host: String, reason: String, underlying: (any Error)? = nil)
    /// The proxy refused the request or could not be reached or authenticated to (the reason
    /// never includes proxy credentials).
    case proxyFailed(proxy: String, reason: String, underlying: (any Error)? = nil)
    /// The host name could not be resolved.
    case dnsFailure(host: String, underlying: (any Error)? = nil)
    /// The request did not finish within its timeout.
    case timedOut
    /// TLS failed: untrusted certificate, name mismatch, handshake error.
    case tlsFailure(host: String, reason: String, underlying: (any Error)? = nil)
    /// The server's public key matched none of the pins for the host.
    case pinningFailed(host: String)
    /// The request carries a ``TLSPolicy`` this transport cannot enforce; it was not sent.
    case tlsPolicyUnsupported(transport: String, host: String)
    /// The connection was reset or closed mid-exchange.
    case connectionLost(reason: String, underlying: (any Error)? = nil)
    /// The body ended before the length the server announced.
    case truncatedResponse(expected: Int64?, received: Int64?)
    /// The response could not be read (malformed headers, bad chunking, corrupt compression).
    case invalidResponse(reason: String, underlying: (any Error)? = nil)
    /// Too many redirects, a loop, or a redirect that policy forbids (https to http).
    case redirectRefused(reason: String)
    /// The response body (counted after decompression) or its headers passed the configured
    /// limit; the transfer was stopped there. See ``ProviderConfiguration/maxResponseBytes``.
    case responseTooLarge(limit: Int64)
    /// Writing or moving a downloaded file failed.
    case fileSystem(reason: String, underlying: (any Error)? = nil)
    /// Any other transport failure.
    case transport(reason: String, underlying: (any Error)? = nil)

    // MARK: Response

    /// The status code failed the target's ``Validation``. The response, body included, is kept.
    case unacceptableStatus(Response)
    /// The response's `Content-Type` is not one the target's ``Validation`` accepts. The
    /// response, body included, is kept.
    case unacceptableContentType(Response, accepted: [String])
    /// The body could not be decoded as `type`.
    case decodingFailed(
        type: String, keyPath: String?, reason: String, bodyExcerpt: String, response: Response? = nil, underlying: (any Error)? = nil)
    /// A business-level code in the body was rejected (see the response-code plugin).
    case businessCode(code: String, message: String?, response: Response)

    // MARK: Control flow

    /// The calling task or `Provider.cancelAll()` cancelled the request.
    case cancelled
    /// A plugin's `willSend` stopped the request before it was sent.
    case stopped(plugin: String, reason: String)
    /// A cache-only request found nothing in the cache.
    case noCachedResponse
    /// A plugin failed in a hook (for example a token refresh that failed).
    case pluginFailed(plugin: String, reason: String, underlying: (any Error)? = nil)

    /// The response, for cases that carry one.
    public var response: Response? {
        switch self {
        case .unacceptableStatus(let response), .businessCode(_, _, let response), .unacceptableContentType(let response, _): response
        case .decodingFailed(_, _, _, _, let response, _): response
        default: nil
        }
    }

    /// The HTTP status code, for cases that carry a response.
    public var statusCode: Int? { response?.statusCode }

    /// What failed and what to do, with credentials removed (see the README's security model).
    public var description: String { redactedDescription }

    private var rawDescription: String {
        switch self {
        case .invalidURL(let target, let reason):
            "Invalid URL for \(target): \(reason). Check the target's baseURL and path."
        case .encodingFailed(let target, let reason, _):
            "Could not encode the body of \(target): \(reason)."
        case .unreadableFile(let target, let url, let reason, _):
            "Cannot read the upload file \(url.path) for \(target): \(reason). Check that it exists and is readable."
        case .invalidRequest(let target, let reason):
            "Invalid request \(target): \(reason)."
        case .proxyFailed(let proxy, let reason, _):
            "The proxy \(proxy) failed: \(reason). Check the proxy address, its credentials and whether it allows this destination."
        case .connectionFailed(let host, let reason, _):
            "Could not connect to \(host): \(reason). Is the server running and reachable?"
        case .dnsFailure(let host, _):
            "Could not resolve the host name \(host)."
        case .timedOut:
            "The request timed out. Raise the target's or the provider's timeout if the server is just slow."
        case .tlsFailure(let host, let reason, _):
            "TLS failed for \(host): \(reason)."
        case .pinningFailed(let host):
            "The public key of \(host) matches none of its pins; the connection was refused."
        case .tlsPolicyUnsupported(let transport, let host):
            "\(transport) cannot enforce the TLS policy (pins or trusted certificates) for \(host); the request was not sent. Use CurlTransport."
        case .connectionLost(let reason, _):
            "The connection was lost: \(reason)."
        case .truncatedResponse(let expected, let received):
            "The response body was cut short: received \(received.map(String.init) ?? "fewer") of \(expected.map(String.init) ?? "the announced") bytes."
        case .invalidResponse(let reason, _):
            "The server sent an invalid response: \(reason)."
        case .redirectRefused(let reason):
            "A redirect was refused: \(reason)."
        case .responseTooLarge(let limit):
            "The response is larger than the limit of \(limit) bytes, so it was not read further. Raise maxResponseBytes (on the provider's configuration or the target) if such responses are expected, or download to a file."
        case .fileSystem(let reason, _):
            "A file operation failed: \(reason)."
        case .transport(let reason, _):
            "The request failed: \(reason)."
        case .unacceptableStatus(let response):
            "Status \(response.statusCode) is not accepted for \(response.request.description)\(Self.attemptsNote(response)). Body: \(response.redactedExcerpt())"
        case .unacceptableContentType(let response, let accepted):
            "The response to \(response.request.description)\(Self.attemptsNote(response)) has Content-Type \(response.headers["Content-Type"].map { "\"\($0)\"" } ?? "(none)"), but only \(accepted.joined(separator: ", ")) is accepted. Body: \(response.redactedExcerpt())"
        case .decodingFailed(let type, let keyPath, let reason, let excerpt, _, _):
            "Could not decode \(type)\(keyPath.map { " at key path \"\($0)\"" } ?? ""): \(reason). Body starts: \(excerpt)"
        case .businessCode(let code, let message, let response):
            "The server answered business code \(code)\(message.map { " (\($0))" } ?? "") for \(response.request.description)\(Self.attemptsNote(response))."
        case .cancelled:
            "The request was cancelled."
        case .stopped(let plugin, let reason):
            "\(plugin) stopped the request before it was sent: \(reason)."
        case .noCachedResponse:
            "No cached response is available and the cache policy forbids the network."
        case .pluginFailed(let plugin, let reason, _):
            "\(plugin) failed: \(reason)."
        }
    }

    public var errorDescription: String? { description }

    /// The message without credentials: server and library texts may quote URLs with userinfo.
    private var redactedDescription: String { SecretRedactor.removingUserinfo(in: rawDescription) }
}

extension NetworkError {
    /// Wraps any error as a ``NetworkError``: passes ``NetworkError`` through, maps cancellation.
    public init(_ error: any Error) {
        self = .mapping(error) { .transport(reason: String(describing: $0), underlying: $0) }
    }

    /// Whether this is ``cancelled``.
    public var isCancellation: Bool {
        if case .cancelled = self { return true }
        return false
    }
}
