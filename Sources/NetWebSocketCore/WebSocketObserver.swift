import NetBase
import Foundation

/// A plugin that watches the WebSockets a provider opens (``LoggerPlugin`` and ``CapturePlugin``
/// in NetPlugins): beside its hooks on the handshake, it is asked once per opened connection for
/// an observer of that connection's messages and close.
package protocol WebSocketObservingPlugin: Plugin {
    /// A connection opened with `response` (the 101, after every plugin's `process`) to the
    /// handshake `request`; returns who observes it, or `nil` to watch nothing.
    func webSocketOpened(_ request: Request, response: Response, subprotocol: String?) -> (any WebSocketObserver)?
}

/// Observes one open WebSocket. Calls come from the connection's I/O or the sender's task,
/// one at a time per direction, in order; they must not block.
package protocol WebSocketObserver: Sendable {
    /// The client is sending `message`: called as the send begins (so it comes before any answer
    /// the message causes), unless the connection is closed already.
    func webSocketSent(_ message: WebSocket.Message, at date: Date)
    /// The peer's `message` arrived at `date` (whether or not it has been read yet).
    func webSocketReceived(_ message: WebSocket.Message, at date: Date)
    /// The connection ended at `date`: `code` and `reason` are the peer's (``WebSocket/closeCode``),
    /// `error` what ended it when it failed.
    func webSocketClosed(code: WebSocket.CloseCode?, reason: String?, error: NetworkError?, at date: Date)
}

/// A connection whose sends, arrivals and end are reported to observers; everything else is
/// the wrapped connection's.
package final class ObservedWebSocketConnection: InboxBackedWebSocketConnection {
    private let base: any InboxBackedWebSocketConnection
    private let observers: [any WebSocketObserver]

    /// Wraps `base` and starts reporting to `observers` (messages that arrived before this are
    /// reported first, in order).
    package init(_ base: any InboxBackedWebSocketConnection, observers: [any WebSocketObserver]) {
        self.base = base
        self.observers = observers
        // `base` owns the inbox that keeps this closure: a strong capture would be a cycle (the
        // inbox also drops the tap after the end, for taps that capture more).
        base.inbox.tap { [observers, weak base] event in
            switch event {
            case .message(let message, let date):
                for observer in observers { observer.webSocketReceived(message, at: date) }
            case .end(let error, let date):
                let (code, reason) = (base?.closeCode, base?.closeReason)
                for observer in observers { observer.webSocketClosed(code: code, reason: reason, error: error, at: date) }
            }
        }
    }

    package var inbox: WebSocketInbox { base.inbox }

    package func send(_ message: WebSocket.Message) async throws {
        if base.closeCode == nil {
            let date = Date()
            for observer in observers { observer.webSocketSent(message, at: date) }
        }
        try await base.send(message)
    }

    package func ping() async throws { try await base.ping() }
    package func close(_ code: WebSocket.CloseCode, reason: String) async { await base.close(code, reason: reason) }
    package func abandon() { base.abandon() }
    package var closeCode: WebSocket.CloseCode? { base.closeCode }
    package var closeReason: String? { base.closeReason }
}
