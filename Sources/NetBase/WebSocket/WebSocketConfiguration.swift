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
    /// Whether permessage-deflate (RFC 7692) is offered; off by default.
    ///
    /// On the curl transport the handshake offers
    /// `permessage-deflate; client_max_window_bits` and reads the server's answer strictly (an
    /// extension or parameter not offered, a parameter twice or a window size outside 8...15
    /// fails the handshake with ``NetworkError/invalidResponse(reason:underlying:)``). A server
    /// may decline: messages then go uncompressed. Once negotiated, messages sent are compressed
    /// (uncompressed when the server asks for an 8-bit window, which zlib cannot make) and
    /// compressed messages received are inflated; ``maximumMessageSize`` holds for the inflated
    /// size, checked while inflating, so a deflate bomb fails with 1009
    /// (``WebSocket/CloseCode/messageTooBig``), and corrupt deflate data fails with 1007
    /// (``WebSocket/CloseCode/invalidFramePayloadData``). On Apple platforms
    /// `URLSessionTransport`'s `URLSessionWebSocketTask` negotiates compression itself and
    /// ignores this setting.
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
