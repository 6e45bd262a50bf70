import NetRedaction
import NetWebSocketCore
import NetToolbox
import Foundation
import NetCore

/// One WebSocket message ``CapturePlugin`` recorded on a connection, redacted like bodies are.
/// In the HAR export these are the entry's `_webSocketMessages` (the form browsers export).
public struct CapturedWebSocketMessage: Sendable, Equatable {
    /// Which way a message went.
    public enum Direction: String, Sendable, Hashable {
        /// The client sent it (HAR `type` `send`).
        case sent = "send"
        /// The peer sent it (HAR `type` `receive`).
        case received = "receive"
    }

    /// Which way it went.
    public let direction: Direction
    /// When it was sent or arrived.
    public let date: Date
    /// The message: JSON fields with redacted names and the handshake's secret values read
    /// `<redacted>` (binary messages have secret bytes replaced).
    public let message: WebSocket.Message
}

/// The bytes every connection's kept messages share: one capture's limit for all of them, so
/// many connections cannot keep a limit each. Each message counts
/// ``WebSocketInbox/messageOverhead`` bytes on top of its payload, so empty messages count too.
final class CapturedWebSocketBudget: Sendable {
    private let limit: Int
    private let used = Locked(0)

    init(limit: Int) {
        self.limit = limit
    }

    /// What a message counts against the budget.
    static func cost(of message: WebSocket.Message) -> Int {
        message.byteCount + WebSocketInbox.messageOverhead
    }

    /// Takes `bytes` if they fit; returns whether they did.
    func take(_ bytes: Int) -> Bool {
        used.withLock { used in
            guard used + bytes <= limit else { return false }
            used += bytes
            return true
        }
    }

    /// Gives back `bytes` a released log held.
    func give(_ bytes: Int) {
        used.withLock { $0 -= bytes }
    }

    /// The bytes taken now (tests).
    var usedBytes: Int { used.withLock { $0 } }
}

/// The messages of one connection as ``CapturePlugin`` keeps them (raw, redacted when read),
/// bounded by the capture's shared WebSocket budget: messages past it are counted, not kept.
/// The log gives its bytes back when it is released (its entry left the capture and its
/// connection ended).
final class CapturedWebSocketLog: WebSocketObserver {
    struct Entry: Sendable {
        let direction: CapturedWebSocketMessage.Direction
        let date: Date
        let message: WebSocket.Message
    }

    private struct State {
        var entries: [Entry] = []
        var bytes = 0
        var dropped = 0
    }

    private let budget: CapturedWebSocketBudget
    private let state = Locked(State())

    init(budget: CapturedWebSocketBudget) {
        self.budget = budget
    }

    deinit {
        budget.give(state.withLock { $0.bytes })
    }

    /// The kept messages, in order, and how many were not kept.
    var contents: (entries: [Entry], dropped: Int) { state.withLock { ($0.entries, $0.dropped) } }

    func webSocketSent(_ message: WebSocket.Message, at date: Date) {
        append(Entry(direction: .sent, date: date, message: message))
    }

    func webSocketReceived(_ message: WebSocket.Message, at date: Date) {
        append(Entry(direction: .received, date: date, message: message))
    }

    func webSocketClosed(code: WebSocket.CloseCode?, reason: String?, error: NetworkError?, at date: Date) {}

    private func append(_ entry: Entry) {
        let size = CapturedWebSocketBudget.cost(of: entry.message)
        state.withLock { state in
            guard budget.take(size) else {
                state.dropped += 1
                return
            }
            state.bytes += size
            state.entries.append(entry)
        }
    }

    /// The messages redacted with the handshake's `secrets` and `redaction`'s rules.
    func redacted(with redaction: Redaction, secrets: KnownSecrets) -> (messages: [CapturedWebSocketMessage], dropped: Int) {
        let (entries, dropped) = contents
        let messages = entries.map { entry in
            let message: WebSocket.Message
            switch entry.message {
            case .text(let text):
                let bytes = BodyText.redactedBytes(Data(text.utf8), contentType: nil, redaction: redaction, secrets: secrets)
                message = .text(String(decoding: bytes, as: UTF8.self))
            case .binary(let data):
                message = .binary(BodyText.redactedBytes(data, contentType: "application/octet-stream", redaction: redaction, secrets: secrets))
            }
            return CapturedWebSocketMessage(direction: entry.direction, date: entry.date, message: message)
        }
        return (messages, dropped)
    }
}

extension CapturePlugin: WebSocketObservingPlugin {
    /// Records the connection's messages in the entry of its handshake (the 101 recorded by
    /// `didReceive`), so the HAR export carries them as `_webSocketMessages`.
    package func webSocketOpened(_ request: Request, response: Response, subprotocol: String?) -> (any WebSocketObserver)? {
        webSocketLog(for: request)
    }
}
