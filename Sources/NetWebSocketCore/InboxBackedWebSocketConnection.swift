import NetBase

/// A connection whose received messages wait in a ``WebSocketInbox``: every engine's (curl,
/// URLSession, the stub). Observers tap the inbox, so they see each message as it arrives.
package protocol InboxBackedWebSocketConnection: WebSocketConnection {
    /// Where received messages wait for the reader.
    var inbox: WebSocketInbox { get }
}

extension InboxBackedWebSocketConnection {
    /// The inbox is the reader's source of messages.
    package var messageSource: any WebSocketMessageSource { inbox }
}

extension WebSocketInbox: WebSocketMessageSource {}
