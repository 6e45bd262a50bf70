import Foundation
import NetCore

/// One entry of a HAR file as ``ReplayTransport`` replays it: the recorded request, what to answer,
/// and the recorded timings. A ``ReplayMatcher`` compares live requests with these.
public struct RecordedExchange: Sendable {
    /// The entry's position in the file's `log.entries`, from 0.
    public let index: Int
    /// The recorded request method.
    public let method: HTTPMethod
    /// The recorded request URL. A HAR written by NetKit has secret query values replaced by
    /// `<redacted>`; the matchers accept any value for those.
    public let url: URL
    /// The recorded request headers (HTTP/2 pseudo-headers such as `:authority` left out).
    public let requestHeaders: HTTPHeaders
    /// The recorded request body (`postData.text`, or `postData.params` form-encoded when the
    /// text is missing), or `nil` when none was recorded.
    public let requestBody: Data?
    /// The recorded status code; `nil` for an entry without a response (status 0: a failed
    /// or blocked request), which replays as ``/NetCore/NetworkError/connectionLost(reason:underlying:)``.
    public let statusCode: Int?
    /// The recorded response headers.
    public let responseHeaders: HTTPHeaders
    /// The recorded response body (`content.text`, decoded from base64 when `encoding` says so).
    public let responseBody: Data
    /// What the recording says went wrong, for entries without a response.
    public let error: String?
    /// The recorded time of the whole exchange (`time`, or the sum of `timings`), when known.
    public let duration: Duration?

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
}

/// One recorded WebSocket message: who sent it and what it was.
struct RecordedWebSocketMessage: Sendable {
    /// The client's (`send`) or the server's (`receive`).
    let direction: CapturedWebSocketMessage.Direction
    /// The message.
    let message: WebSocket.Message
}
