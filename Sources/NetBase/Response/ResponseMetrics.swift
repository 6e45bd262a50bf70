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
