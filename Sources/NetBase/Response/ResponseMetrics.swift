import Foundation

/// Timings and sizes of one exchange, as far as the transport can tell.
public struct ResponseMetrics: Sendable, Hashable {
    /// When sending started.
    public var startDate: Date
    /// The whole exchange, from sending the request to receiving the last byte.
    public var duration: Duration
    /// Time until the connection was ready (DNS, TCP, TLS), when known.
    public var connectDuration: Duration?
    /// Time until the first response byte, when known.
    public var timeToFirstByte: Duration?
    /// Request body bytes sent.
    public var bytesSent: Int64
    /// Response body bytes received.
    public var bytesReceived: Int64
    /// The HTTP version, such as `"HTTP/1.1"` or `"HTTP/2"`, when known.
    public var httpVersion: String?
    /// Time spent resolving the host name (zero for a reused connection or an IP literal), when known.
    public var dnsDuration: Duration?
    /// Time spent in the TLS handshake, when known and when there was one.
    public var tlsHandshakeDuration: Duration?
    /// Time from the start until the request started going out (connection ready, request about
    /// to be written), when known.
    public var requestStartDuration: Duration?
    /// Time from the first response byte to the last one, when known.
    public var transferDuration: Duration?
    /// Whether the exchange reused an open connection, when known.
    public var isReusedConnection: Bool?
    /// The peer's IP address (the proxy's, through a proxy), when known.
    public var remoteAddress: String?
    /// The peer's port, when known.
    public var remotePort: Int?
    /// How many redirects were followed before this response (0: none).
    public var redirectCount: Int = 0
    /// Which attempt of its call this exchange was, starting at 1 (set by the provider).
    public var attempt: Int = 1

    /// Creates metrics.
    public init(
        startDate: Date, duration: Duration, connectDuration: Duration? = nil, timeToFirstByte: Duration? = nil,
        bytesSent: Int64 = 0, bytesReceived: Int64 = 0, httpVersion: String? = nil
    ) {
        self.startDate = startDate
        self.duration = duration
        self.connectDuration = connectDuration
        self.timeToFirstByte = timeToFirstByte
        self.bytesSent = bytesSent
        self.bytesReceived = bytesReceived
        self.httpVersion = httpVersion
    }
}
