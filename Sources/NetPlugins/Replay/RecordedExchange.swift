import Foundation
import NetCore

/// One entry of a HAR file as ``ReplayTransport`` replays it: the recorded request, what to answer,
/// and the recorded timings. A ``ReplayMatcher`` compares live requests with these.
package struct RecordedExchange: Sendable {
    /// The entry's position in the file's `log.entries`, from 0.
    package let index: Int
    /// The recorded request method.
    package let method: HTTPMethod
    /// The recorded request URL. A HAR written by NetKit has secret query values replaced by
    /// `<redacted>`; the matchers accept any value for those.
    package let url: URL
    /// The recorded request headers (HTTP/2 pseudo-headers such as `:authority` left out).
    package let requestHeaders: HTTPHeaders
    /// The recorded request body (`postData.text`, or `postData.params` form-encoded when the
    /// text is missing), or `nil` when none was recorded.
    package let requestBody: Data?
    /// The recorded status code; `nil` for an entry without a response (status 0: a failed
    /// or blocked request), which replays as ``/NetCore/NetworkError/connectionLost(reason:underlying:)``.
    package let statusCode: Int?
    /// The recorded response headers.
    package let responseHeaders: HTTPHeaders
    /// The recorded response body (`content.text`, decoded from base64 when `encoding` says so).
    package let responseBody: Data
    /// What the recording says went wrong, for entries without a response.
    package let error: String?
    /// The recorded time of the whole exchange (`time`, or the sum of `timings`), when known.
    package let duration: Duration?

    /// Time until the connection was ready (`blocked` + `dns` + `connect`), when recorded.
    let connectDuration: Duration?
    /// Time until the first response byte, when recorded.
    let timeToFirstByte: Duration?
    /// The response's HTTP version, when recorded.
    let httpVersion: String?
    /// ``url`` prepared for matching, once.
    let matchURL: ReplayURL
    /// A WebSocket's recorded messages (`_webSocketMessages`), in order; `nil` for an entry
    /// without them.
    var webSocketMessages: [RecordedWebSocketMessage]? = nil

    /// This recording as a ``CapturedExchange``, the one exchange type custom matchers see. A HAR
    /// entry does not record the call's identifier, the attempt, the start or the metrics: they
    /// are a new identifier, 1, the distant past and `nil`.
    package var captured: CapturedExchange {
        CapturedExchange(
            id: UUID(), attempt: 1, method: method, url: url.absoluteString, host: url.host ?? "", path: url.path,
            requestHeaders: requestHeaders, requestBody: requestBody, statusCode: statusCode,
            responseHeaders: responseHeaders, responseBody: responseBody, source: nil, error: error,
            startDate: .distantPast, duration: duration ?? .zero, metrics: nil, bodiesOmitted: false)
    }
}

/// One recorded WebSocket message: who sent it and what it was.
struct RecordedWebSocketMessage: Sendable {
    /// The client's (`send`) or the server's (`receive`).
    let direction: CapturedWebSocketMessage.Direction
    /// The message.
    let message: WebSocket.Message
}
