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

/// The messages of one connection as ``CapturePlugin`` keeps them (raw, redacted when read),
/// bounded by the capture's byte limit: messages past it are counted, not kept.
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

    private let maxBytes: Int
    private let state = Locked(State())

    init(maxBytes: Int) {
        self.maxBytes = maxBytes
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
        let size = entry.message.byteCount
        state.withLock { state in
            guard state.bytes + size <= maxBytes else {
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
