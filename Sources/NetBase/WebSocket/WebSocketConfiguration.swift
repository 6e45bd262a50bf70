/// How a ``WebSocket`` connection behaves; pass it to `Provider.webSocket(_:configuration:)`.
///
/// ```swift
/// var configuration = WebSocketConfiguration()
/// configuration.subprotocols = ["graphql-transport-ws"]
/// configuration.pingInterval = .seconds(20)
/// let socket = try await provider.webSocket(.subscriptions, configuration: configuration)
/// ```
public struct WebSocketConfiguration: Sendable, Equatable {
    /// The largest message (all fragments together) accepted from the peer, in bytes; 16 MiB by
    /// default. A frame header that announces more fails the connection with 1009
    /// (``WebSocket/CloseCode/messageTooBig``) before any of its payload is buffered.
    /// Values past 2^62 bytes count as 2^62 (so frame-length arithmetic stays in range), and
    /// negative values as 0.
    public var maximumMessageSize: Int
    /// How often a ping goes out while the connection is open; `nil` (the default) sends none.
    public var pingInterval: Duration?
    /// The subprotocols offered in `Sec-WebSocket-Protocol`, in order of preference; the server
    /// may pick one (``WebSocket/subprotocol``) and may not answer one that was not offered.
    public var subprotocols: [String]
    /// How long a close waits for the peer's close frame before the connection is dropped;
    /// 5 seconds by default.
    public var closeTimeout: Duration
    /// Whether permessage-deflate (RFC 7692) is offered. NetKit does not implement it yet, so
    /// `true` makes `Provider.webSocket(_:configuration:)` fail with a clear error; off by default.
    public var compression: Bool

    /// The largest ``maximumMessageSize`` that counts: 2^62 bytes.
    package static let largestMaximumMessageSize = 1 << 62

    /// ``maximumMessageSize`` within 0 and ``largestMaximumMessageSize``.
    package var effectiveMaximumMessageSize: Int {
        Self.clampedMessageSize(maximumMessageSize)
    }

    /// `size` within 0 and ``largestMaximumMessageSize``.
    package static func clampedMessageSize(_ size: Int) -> Int {
        min(max(size, 0), largestMaximumMessageSize)
    }

    /// A configuration with the defaults: 16 MiB messages, no pings, no subprotocols, a 5-second
    /// close timeout, no compression.
    public init(
        maximumMessageSize: Int = 16 * 1024 * 1024,
        pingInterval: Duration? = nil,
        subprotocols: [String] = [],
        closeTimeout: Duration = .seconds(5),
        compression: Bool = false
    ) {
        self.maximumMessageSize = maximumMessageSize
        self.pingInterval = pingInterval
        self.subprotocols = subprotocols
        self.closeTimeout = closeTimeout
        self.compression = compression
    }
}
