import NetWebSocketCore
import Foundation
import NetCore

/// WebSockets from a recording: a handshake is matched like a request (a `ws`/`wss` URL in the
/// HAR matches the `http`/`https` handshake), and an entry with a 101 plays its
/// `_webSocketMessages` back as the server's side of the conversation:
///
/// - The recorded `receive` messages are delivered in order; those recorded after the client's
///   n-th `send` wait until the client has sent its n-th message (so an answer never comes before
///   its question).
/// - Sends are matched by position: the client's n-th message is compared with the recording's
///   n-th `send`, of the same kind (text or binary) and equal, JSON by value; a recorded
///   `<redacted>` (how ``CapturePlugin`` records secret fields and secret values) stands for any
///   value in JSON and form fields, and for any run of characters or bytes elsewhere. A message
///   that differs fails the connection: ``WebSocket/messages`` throws a
///   ``/NetCore/NetworkError/invalidResponse(reason:underlying:)`` naming the entry and the position.
/// - When the recording is played out (every `receive` delivered, every `send` matched), the
///   server closes with 1000. Pings are answered at once.
/// - The 101 has the recorded headers with a `Sec-WebSocket-Accept` for this handshake's key
///   (and no `Sec-WebSocket-Extensions`: the recorded messages are already decompressed); a
///   recorded subprotocol must be one the client offers (a redacted one, `<redacted>`, answers
///   with the client's first offered subprotocol). An entry with another status answers
///   the handshake with it (a recorded 401 fails it like a live one).
/// - ``ReplayMode/recordWhenMissing(transport:to:redaction:)`` does not record WebSockets: a
///   handshake with no recording fails clearly (record one with ``CapturePlugin``).
extension ReplayTransport: WebSocketTransport {
    package func openWebSocket(
        _ request: Request, handshake: WebSocketHandshake, configuration: WebSocketConfiguration
    ) async throws -> WebSocketOpening {
        if Task.isCancelled { throw NetworkError.cancelled }
        guard let exchange = ledger.take(for: request, matcher: matcher, repeatingLast: recorder == nil) else {
            let miss = ReplayMiss.error(for: request, in: source, among: ledger.exchanges)
            guard recorder != nil, case .transport(let reason, _) = miss else { throw miss }
            throw NetworkError.transport(
                reason: reason + "; ReplayTransport does not record WebSockets: record the conversation with "
                    + "CapturePlugin and save its harData()")
        }
        let recorded = try ReplayResponse.make(from: exchange, for: request, source: source, progress: nil)
        guard recorded.statusCode == 101 else { return .answered(recorded) }
        var headers = recorded.headers
        headers["Sec-WebSocket-Accept"] = WebSocketHandshake.accept(for: handshake.key)
        headers["Sec-WebSocket-Extensions"] = nil
        if headers["Sec-WebSocket-Protocol"] == Redaction.placeholder {
            // Redacted when recorded (it may carry a token): any offered one stands for it.
            headers["Sec-WebSocket-Protocol"] = handshake.subprotocols.first
        }
        let subprotocol = try handshake.validate(status: 101, headers: headers)
        let script = exchange.webSocketMessages ?? []
        let name = "entry \(exchange.index) of \(source)"
        let stub = WebSocketStubTransport(subprotocol: subprotocol) { peer in
            try await Self.play(script, to: peer, name: name)
        }
        let opening = try await stub.openWebSocket(request, handshake: handshake, configuration: configuration)
        guard case .upgraded(_, _, let connection) = opening else { return opening }
        let response = Response(
            statusCode: 101, headers: headers, data: Data(), request: request, source: .stub, metrics: recorded.metrics)
        return .upgraded(response, subprotocol: subprotocol, connection: connection)
    }

    /// The server's side of a recorded conversation (see above).
    private static func play(_ script: [RecordedWebSocketMessage], to peer: WebSocketStubPeer, name: String) async throws {
        var sends = 0
        for step in script {
            switch step.direction {
            case .received:
                peer.send(step.message)
            case .sent:
                sends += 1
                guard let live = try await peer.receive() else { return }
                guard matches(live, recorded: step.message) else {
                    throw NetworkError.invalidResponse(
                        reason: "the client's WebSocket message \(sends) (\(kind(of: live)), \(live.byteCount) bytes) does not "
                            + "match send \(sends) of \(name) (\(kind(of: step.message)), \(step.message.byteCount) bytes)")
                }
            }
        }
    }

    private static func matches(_ live: WebSocket.Message, recorded: WebSocket.Message) -> Bool {
        switch (live, recorded) {
        case (.text(let live), .text(let recorded)):
            ReplayBody.equivalent(Data(live.utf8), Data(recorded.utf8)) || matchesRedacted(Array(live.utf8), Array(recorded.utf8))
        case (.binary(let live), .binary(let recorded)): live == recorded || matchesRedacted(Array(live), Array(recorded))
        default: false
        }
    }

    /// Whether `live` is `recorded` with each `<redacted>` in it standing for any run of bytes
    /// (how ``CapturePlugin`` replaces secret values in text and binary messages).
    static func matchesRedacted(_ live: [UInt8], _ recorded: [UInt8]) -> Bool {
        let parts = split(recorded, on: Array(Redaction.placeholder.utf8))
        guard parts.count > 1, let first = parts.first, let last = parts.last,
            live.count >= first.count + last.count,
            live.starts(with: first), live.reversed().starts(with: last.reversed())
        else { return false }
        // Each literal part in between at its earliest place: enough when every gap is a wildcard.
        var position = first.count
        let end = live.count - last.count
        for part in parts.dropFirst().dropLast() where !part.isEmpty {
            guard let found = firstIndex(of: part, in: live, from: position, before: end) else { return false }
            position = found + part.count
        }
        return true
    }

    private static func split(_ bytes: [UInt8], on separator: [UInt8]) -> [[UInt8]] {
        var parts: [[UInt8]] = []
        var start = 0
        var position = 0
        while let found = firstIndex(of: separator, in: bytes, from: position, before: bytes.count) {
            parts.append(Array(bytes[start..<found]))
            start = found + separator.count
            position = start
        }
        parts.append(Array(bytes[start...]))
        return parts
    }

    private static func firstIndex(of part: [UInt8], in bytes: [UInt8], from start: Int, before end: Int) -> Int? {
        guard !part.isEmpty, end - start >= part.count else { return nil }
        for index in start...(end - part.count) where bytes[index..<(index + part.count)].elementsEqual(part) {
            return index
        }
        return nil
    }

    private static func kind(of message: WebSocket.Message) -> String {
        if case .text = message { return "text" }
        return "binary"
    }
}
