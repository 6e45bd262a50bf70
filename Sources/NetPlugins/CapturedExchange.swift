import NetRedaction
import Foundation
import NetCore

/// One recorded attempt, as ``CapturePlugin`` hands it out: secrets already redacted.
public struct CapturedExchange: Sendable {
    /// The call's identifier (the same for every attempt of one call).
    public let id: UUID
    /// The attempt number, starting at 1.
    public let attempt: Int
    /// The request method.
    public let method: HTTPMethod
    /// The request URL as text, without userinfo, redacted query values replaced.
    public let url: String
    /// The request host.
    package let host: String
    /// The request path.
    package let path: String
    /// The request headers, redacted.
    public let requestHeaders: HTTPHeaders
    /// The request body when it was in memory, redacted (secret JSON keys, form and multipart
    /// fields, then known secret values, binary bytes included); `nil` for file bodies or when
    /// the exchange was too large to keep bodies.
    public let requestBody: Data?
    /// The status code, or `nil` when no response arrived.
    public let statusCode: Int?
    /// The response headers, redacted.
    public let responseHeaders: HTTPHeaders
    /// The response body, redacted like ``requestBody`` (a binary body has known secret bytes
    /// replaced); empty when there was none or it was not kept.
    public let responseBody: Data
    /// Where the response came from.
    public let source: ResponseSource?
    /// What failed, redacted, or `nil` for a success.
    public let error: String?
    /// When the attempt started.
    public let startDate: Date
    /// How long it took.
    public let duration: Duration
    /// The transport's measurements, when it made any.
    public let metrics: ResponseMetrics?
    /// Whether bodies were dropped because the exchange alone exceeded the capture's byte limit.
    public let bodiesOmitted: Bool
    /// For a WebSocket handshake (a 101), the connection's messages so far, redacted, in order;
    /// empty otherwise.
    public internal(set) var webSocketMessages: [CapturedWebSocketMessage] = []
    /// Whether this entry is a WebSocket handshake whose messages were recorded.
    var isWebSocket = false
    /// How many of the connection's messages were not kept (past the capture's byte limit).
    var droppedWebSocketMessages = 0
}

/// The response the capture keeps: the response itself, whose fields live in one shared box, so
/// recording it retains that box instead of copying each field (and releasing each on eviction).
struct CapturedResponse: Sendable {
    private(set) var response: Response

    init(_ response: Response) {
        self.response = response
    }

    var statusCode: Int { response.statusCode }
    var headers: HTTPHeaders { response.headers }
    var data: Data {
        get { response.data }
        set { response.data = newValue }
    }
    var source: ResponseSource { response.source }
    var metrics: ResponseMetrics? { response.metrics }
}

extension Response {
    /// This response as a capture of `request` keeps it: carrying `request` itself (usually the
    /// very box it carries already; a transport or plugin may have attached another request, whose
    /// body the capture's byte count would not see), and without its body when `keepsBody` is false
    /// (`request` then has none either).
    func kept(for request: Request, keepsBody: Bool) -> Response {
        var kept = self
        if !kept.request.sharesFields(with: request) { kept.request = request }
        if !keepsBody { kept.data = Data() }
        return kept
    }
}

extension NetworkError {
    /// This error with `response` in place of the response it carries (an error that carries
    /// none is returned as it is).
    func carrying(_ response: Response) -> NetworkError {
        switch self {
        case .unacceptableStatus: .unacceptableStatus(response)
        case .unacceptableContentType(_, let accepted): .unacceptableContentType(response, accepted: accepted)
        case .decodingFailed(let type, let keyPath, let reason, let bodyExcerpt, .some, let underlying):
            .decodingFailed(type: type, keyPath: keyPath, reason: reason, bodyExcerpt: bodyExcerpt, response: response, underlying: underlying)
        case .businessCode(let code, let message, _): .businessCode(code: code, message: message, response: response)
        default: self
        }
    }
}

/// What the capture stores per attempt: raw values, redacted only when read.
struct CaptureRecord: Sendable {
    let request: Request
    let response: CapturedResponse?
    let error: NetworkError?
    let startDate: Date
    let duration: Duration
    let bytes: Int
    let bodiesOmitted: Bool
    /// A WebSocket handshake's messages (a 101 to an upgrade request).
    var webSocket: CapturedWebSocketLog? = nil

    func redacted(with redaction: Redaction) -> CapturedExchange {
        let secrets = redaction.knownSecrets(in: request, responseHeaders: response?.headers)
        let rules = redaction.rules
        let requestBody =
            bodiesOmitted
            ? nil
            : request.body.inMemoryData.map {
                BodyText.redactedBytes($0, contentType: SecretRedactor.contentType(of: request), redaction: redaction, secrets: secrets)
            }
        let responseBody =
            response.map {
                BodyText.redactedBytes($0.data, contentType: $0.headers["Content-Type"], redaction: redaction, secrets: secrets)
            } ?? Data()
        func headers(_ headers: HTTPHeaders) -> HTTPHeaders {
            HTTPHeaders(allFields: SecretRedactor.redact(headers: headers, secrets: secrets, rules: rules).map { .init(name: $0.name, value: $0.value) })
        }
        var exchange = CapturedExchange(
            id: request.id, attempt: request.attempt, method: request.method, url: redaction.redact(request.url),
            host: request.host, path: request.url.path,
            requestHeaders: headers(request.headers),
            requestBody: requestBody, statusCode: response?.statusCode,
            responseHeaders: response.map { headers($0.headers) } ?? HTTPHeaders(),
            responseBody: responseBody, source: response?.source,
            error: error.map { SecretRedactor.redact(text: $0.description, url: request.url, secrets: secrets, rules: rules) },
            startDate: startDate, duration: duration, metrics: response?.metrics, bodiesOmitted: bodiesOmitted
        )
        if let webSocket {
            exchange.isWebSocket = true
            (exchange.webSocketMessages, exchange.droppedWebSocketMessages) = webSocket.redacted(with: redaction, secrets: secrets)
        }
        return exchange
    }
}
