import NetRedaction
import NetWebSocketCore
import NetToolbox
import Foundation
import NetCore

/// WebSockets: the handshake is logged like any request (its `→` and `← 101` lines); then one
/// line when the connection opens and one when it ends, and in ``LoggerPlugin/Verbosity/verbose``
/// mode (the debug level) one line per message:
///
/// ```
/// ⇄ WebSocket open ws://localhost:8080/chat subprotocol=v1 attempt=1
/// ⇢ text 17 B ws://localhost:8080/chat {"token":"<redacted>"}
/// ⇠ binary 1.0 KB ws://localhost:8080/chat <binary message, 1.0 KB>
/// ⇄ WebSocket closed ws://localhost:8080/chat code=1000 after 1234.5 ms: sent 3 (1.0 KB), received 4 (2.0 KB)
/// ```
///
/// Previews follow the redaction rules of bodies: JSON fields with redacted names and every
/// secret value the handshake carried (its `Authorization` token, say) read `<redacted>`, text
/// is cut at ``LoggerPlugin/bodyLimit`` characters, binary messages are summarised. A close
/// reason and an error are scrubbed the same way. A custom ``LoggerPlugin/Formatter`` does not
/// apply to these lines.
extension LoggerPlugin: WebSocketObservingPlugin {
    package func webSocketOpened(_ request: Request, response: Response, subprotocol: String?) -> (any WebSocketObserver)? {
        let observer = LoggerWebSocketObserver(plugin: self, request: request, responseHeaders: response.headers)
        var line = "⇄ WebSocket open \(observer.url)"
        // A subprotocol may be a token (Sec-WebSocket-Protocol is redacted by default).
        if let subprotocol { line += " subprotocol=\(observer.scrub(subprotocol))" }
        output(line + " attempt=\(request.attempt)")
        return observer
    }
}

/// The lines of one connection: previews in verbose mode, the totals in the closing line.
final class LoggerWebSocketObserver: WebSocketObserver {
    private struct Totals {
        var sent = 0
        var sentBytes: Int64 = 0
        var received = 0
        var receivedBytes: Int64 = 0
    }

    /// The connection's URL, redacted, with its `ws`/`wss` scheme.
    let url: String
    private let plugin: LoggerPlugin
    private let request: Request
    private let secrets: KnownSecrets
    private let opened = ContinuousClock.now
    private let totals = Locked(Totals())

    init(plugin: LoggerPlugin, request: Request, responseHeaders: HTTPHeaders) {
        self.plugin = plugin
        self.request = request
        secrets = plugin.redaction.knownSecrets(in: request, responseHeaders: responseHeaders)
        url = Self.webSocketScheme(plugin.redaction.redact(request.url))
    }

    func webSocketSent(_ message: WebSocket.Message, at date: Date) {
        totals.withLock { totals in
            totals.sent += 1
            totals.sentBytes += Int64(message.byteCount)
        }
        if plugin.verbosity == .verbose { plugin.output(line("⇢", message)) }
    }

    func webSocketReceived(_ message: WebSocket.Message, at date: Date) {
        totals.withLock { totals in
            totals.received += 1
            totals.receivedBytes += Int64(message.byteCount)
        }
        if plugin.verbosity == .verbose { plugin.output(line("⇠", message)) }
    }

    func webSocketClosed(code: WebSocket.CloseCode?, reason: String?, error: NetworkError?, at date: Date) {
        let totals = totals.withLock { $0 }
        var line = "⇄ WebSocket \(error == nil ? "closed" : "failed") \(url)"
        if let code { line += " code=\(code.rawValue)" }
        if let reason, !reason.isEmpty { line += " reason=\"\(scrub(reason))\"" }
        line += " after \(UnitText.milliseconds(.now - opened).text)"
        line += ": sent \(totals.sent) (\(UnitText.bytes(totals.sentBytes).text))"
        line += ", received \(totals.received) (\(UnitText.bytes(totals.receivedBytes).text))"
        if let error { line += ": " + scrub(error.description) }
        plugin.output(line)
    }

    /// `⇢ text 5 B ws://… preview`.
    private func line(_ arrow: String, _ message: WebSocket.Message) -> String {
        let size = UnitText.bytes(Int64(message.byteCount)).text
        switch message {
        case .text(let text):
            let shown =
                BodyText.text(Data(text.utf8), contentType: nil, pretty: false, redaction: plugin.redaction, secrets: secrets)
                ?? scrub(text)
            let preview = BodyText.truncate(shown, limit: plugin.bodyLimit)
                .replacingOccurrences(of: "\r", with: "\\r").replacingOccurrences(of: "\n", with: "\\n")
            return "\(arrow) text \(size) \(url) \(preview)"
        case .binary:
            return "\(arrow) binary \(size) \(url) <binary message, \(size)>"
        }
    }

    /// `text` with the handshake's secrets and secret-looking values hidden.
    func scrub(_ text: String) -> String {
        SecretRedactor.redact(text: text, url: request.url, secrets: secrets, rules: plugin.redaction.rules)
    }

    /// The handshake ran over http/https; the log names the connection as `ws`/`wss`.
    static func webSocketScheme(_ url: String) -> String {
        if url.hasPrefix("https://") { return "wss://" + url.dropFirst("https://".count) }
        if url.hasPrefix("http://") { return "ws://" + url.dropFirst("http://".count) }
        return url
    }
}
