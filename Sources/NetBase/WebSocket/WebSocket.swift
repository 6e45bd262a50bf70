import Foundation

/// An open WebSocket connection (RFC 6455), opened by `Provider.webSocket(_:configuration:)`
/// through the provider's plugins, TLS policies and proxies.
///
/// ```swift
/// let socket = try await provider.webSocket(.chat)
/// try await socket.send(.text("hello"))
/// for try await message in socket.messages {
///     print(message)
/// }
/// print(socket.closeCode ?? .abnormalClosure)
/// ```
///
/// Sends, pings and the close may come from any task (cancelling a send or a ping ends its wait
/// with ``NetworkError/cancelled``). ``messages`` is read by one task (a second task reading while
/// one waits gets a ``NetworkError``): it ends after the close handshake and throws a
/// ``NetworkError`` when the connection fails (a protocol violation by the peer, a lost
/// connection, a message past
/// ``WebSocketConfiguration/maximumMessageSize``). While nobody reads it, the connection stops
/// reading from the socket once a few messages wait, so a slow reader never makes memory grow.
/// Keep the `WebSocket` while you use it: releasing it closes the connection (1001, going away).
public final class WebSocket: Sendable {
    /// The handshake's answer: the 101 Switching Protocols response, after every plugin's hooks.
    public let response: Response
    /// The subprotocol the server chose from ``WebSocketConfiguration/subprotocols``, if any.
    public let subprotocol: String?
    /// The messages from the peer, in order; one reader at a time.
    public let messages: Messages
    private let connection: any WebSocketConnection

    /// Wraps a transport's open connection.
    package init(response: Response, subprotocol: String?, connection: any WebSocketConnection) {
        self.response = response
        self.subprotocol = subprotocol
        self.connection = connection
        self.messages = Messages(source: connection.messageSource)
    }

    deinit {
        connection.abandon()
    }

    /// Sends a whole message in one frame.
    ///
    /// On `CurlTransport` it returns once the connection has taken the message, at once while
    /// less than 1 MiB waits to be written and the socket keeps up; beyond that it waits for the
    /// socket, so a sender faster than the network is slowed down rather than buffered without
    /// bound. A message taken is sent unless the connection fails first.
    /// - Throws: ``NetworkError`` when the connection is closing, closed or failed.
    public func send(_ message: Message) async throws {
        try await connection.send(message)
    }

    /// Sends a ping and returns when the pong echoing its payload arrives.
    /// - Throws: ``NetworkError`` when the connection closes or fails first;
    ///   ``NetworkError/cancelled`` when the task is cancelled.
    public func ping() async throws {
        try await connection.ping()
    }

    /// Starts the close handshake with `code` and `reason` (at most 123 bytes of UTF-8 are sent)
    /// and returns once the peer answered, or when ``WebSocketConfiguration/closeTimeout``
    /// passed (the connection is then dropped and ``closeCode`` is 1006). Does nothing more
    /// once closed.
    public func close(_ code: CloseCode = .normalClosure, reason: String = "") async {
        await connection.close(code, reason: reason)
    }

    /// The peer's close code once the connection closed: its close frame's code, 1005 for a
    /// close frame without one, 1006 when the connection ended without a close frame; `nil`
    /// while open.
    public var closeCode: CloseCode? { connection.closeCode }

    /// The peer's close reason once it sent a close frame; `nil` otherwise.
    public var closeReason: String? { connection.closeReason }
}

/// A transport's side of one open WebSocket: what ``WebSocket`` forwards to. A class, so
/// observers can refer to it weakly (it owns the inbox that keeps them).
package protocol WebSocketConnection: AnyObject, Sendable {
    /// Where received messages wait for the reader (the engine's inbox, in NetWebSocketCore).
    var messageSource: any WebSocketMessageSource { get }
    /// Sends a message; throws ``NetworkError`` once closing or failed.
    func send(_ message: WebSocket.Message) async throws
    /// Sends a ping and waits for its pong.
    func ping() async throws
    /// Runs the close handshake, bounded by the close timeout.
    func close(_ code: WebSocket.CloseCode, reason: String) async
    /// The ``WebSocket`` was released: close (1001) without waiting, so nothing stays open.
    func abandon()
    /// The peer's close code once closed.
    var closeCode: WebSocket.CloseCode? { get }
    /// The peer's close reason once closed.
    var closeReason: String? { get }
}

/// The reader's end of a connection's received messages: what ``WebSocket/Messages`` iterates.
/// The contract lives here so the public `WebSocket` needs no engine; NetWebSocketCore's
/// `WebSocketInbox` is the one implementation.
package protocol WebSocketMessageSource: Sendable {
    /// The next message, waiting for it; `nil` after the close.
    /// - Throws: ``NetworkError``.
    func next() async throws -> WebSocket.Message?
}
