import NetBase
/// The life of one open WebSocket connection (RFC 6455, sections 5-7): events in, actions out,
/// no I/O. A transport feeds it the bytes it reads and what the caller asks for, and does what
/// each answer says: write bytes, deliver a message, start or stop the close timer, close the
/// socket, end the message stream.
///
/// Phases: `open` (messages both ways) → `closeSent` (our close frame went out; the peer's data
/// is still delivered; the close timer runs) → `closed`. A close frame from the peer while
/// open is echoed and closes at once; a protocol violation sends a close frame with the code
/// section 7.4.1 names and closes at once; the end of the byte stream before a close handshake
/// is an abnormal closure (1006). Nothing happens in `closed`.
///
/// With permessage-deflate negotiated (a ``WebSocketCompression``), a data message whose first
/// frame sets RSV1 is inflated frame by frame as it arrives, its inflated size held to the
/// maximum message size and its text checked as UTF-8 after inflation; messages sent are
/// compressed. Not `Sendable`: the compression's streams belong to the one thread that runs it.
package struct WebSocketConnectionStateMachine {
    /// Where the connection is.
    package enum Phase: Equatable, Sendable {
        case open
        case closeSent
        case closed
    }

    /// Why the message stream ends with an error.
    package enum Failure: Equatable, Sendable {
        /// The peer broke the protocol; the close frame carried `violation.code`.
        case violation(WebSocketProtocolViolation)
        /// The byte stream ended (or failed) before the close handshake.
        case connectionLost
    }

    /// What the transport must do, in order.
    package enum Action: Equatable, Sendable {
        /// Write these bytes (whole frames) to the socket.
        case write([UInt8])
        /// Hand a whole message to the reader.
        case deliver(WebSocket.Message)
        /// A pong arrived (an answer to ``ping(payload:)``).
        case pongReceived([UInt8])
        /// Start the close timer (``WebSocketConfiguration/closeTimeout``).
        case startCloseTimer
        /// Close the socket (after the writes before it).
        case closeTransport
        /// End the message stream normally: the close handshake finished (or our close timed out).
        case finish
        /// End the message stream with an error.
        case fail(Failure)
    }

    /// Why a send was refused.
    package enum SendRefusal: Error, Equatable, Sendable {
        /// A close frame was sent or received; no more data may go out.
        case closing
    }

    /// The largest message accepted, in bytes (at most
    /// ``WebSocketConfiguration/largestMaximumMessageSize``).
    package let maximumMessageSize: Int
    package private(set) var phase: Phase = .open
    /// The peer's close code once closed (1005 for a close frame without one, 1006 without a
    /// close frame).
    package private(set) var closeCode: WebSocket.CloseCode?
    /// The peer's close reason once closed by a close frame.
    package private(set) var closeReason: String?

    private var decoder: WebSocketFrameDecoder
    private var fragmentOpcode: WebSocketFrame.Opcode?
    /// Whether the message being read is compressed (its first frame set RSV1).
    private var fragmentsCompressed = false
    /// The message being read (inflated, when compressed).
    private var fragments: [UInt8] = []
    /// permessage-deflate, when negotiated.
    private let compression: (any WebSocketCompression)?
    private var utf8 = WebSocketUTF8Validator()
    /// Overrides the frame masking key (tests only; `nil` draws a secure random key per frame).
    package var fixedMaskingKey: [UInt8]?
    /// The inflated bytes one ``received(_:)`` call produces before it stops between frames,
    /// leaving the rest buffered (``hasUnreadFrames``): a read of compressed messages cannot
    /// turn into an unbounded amount of work and memory in one pass.
    package var inflationPerCall = 1 << 20
    /// Whether the last ``received(_:)`` stopped at ``inflationPerCall`` with frames still
    /// buffered: call it again (with no bytes) before reading more, when the reader has room.
    package private(set) var hasUnreadFrames = false
    /// What the current ``received(_:)`` call inflated so far.
    private var inflatedInCall = 0

    /// - Parameter compression: permessage-deflate's transformation when the handshake
    ///   negotiated it; `nil` otherwise (RSV1 then fails the connection).
    package init(maximumMessageSize: Int, compression: (any WebSocketCompression)? = nil) {
        self.maximumMessageSize = WebSocketConfiguration.clampedMessageSize(maximumMessageSize)
        self.compression = compression
        decoder = WebSocketFrameDecoder(compression: compression != nil)
    }

    /// Bytes received and not yet read as frames (what the message being read holds is not
    /// counted here).
    package var bufferedByteCount: Int { decoder.bufferedByteCount + fragments.count }

    // MARK: Events from the caller

    /// The frame bytes of `message`, or a refusal once a close frame went either way.
    package mutating func send(_ message: WebSocket.Message) -> Result<[UInt8], SendRefusal> {
        guard phase == .open else { return .failure(.closing) }
        var frame: WebSocketFrame =
            switch message {
            case .text(let text): WebSocketFrame(opcode: .text, payload: Array(text.utf8))
            case .binary(let data): WebSocketFrame(opcode: .binary, payload: Array(data))
            }
        if !frame.payload.isEmpty, let compressed = compression?.compress(frame.payload) {
            frame.payload = compressed
            frame.isCompressed = true
        }
        return .success(encode(frame))
    }

    /// The bytes of a ping carrying `payload` (at most 125 bytes), or a refusal once closing.
    package mutating func ping(payload: [UInt8]) -> Result<[UInt8], SendRefusal> {
        guard phase == .open else { return .failure(.closing) }
        return .success(encode(WebSocketFrame(opcode: .ping, payload: Array(payload.prefix(125)))))
    }

    /// Starts the close handshake: our close frame goes out and the close timer starts. Does
    /// nothing once a close frame went either way.
    package mutating func close(code: WebSocket.CloseCode, reason: String) -> [Action] {
        guard phase == .open else { return [] }
        phase = .closeSent
        let payload = code.isSendable ? WebSocketFrame.closePayload(code: code, reason: reason) : []
        return [.write(encode(WebSocketFrame(opcode: .close, payload: payload))), .startCloseTimer]
    }

    /// The close timer ran out before the peer's close frame: drop the connection (1006).
    package mutating func closeTimerFired() -> [Action] {
        guard phase == .closeSent else { return [] }
        phase = .closed
        closeCode = .abnormalClosure
        return [.closeTransport, .finish]
    }

    // MARK: Events from the socket

    /// The byte stream ended or failed: an abnormal closure unless the handshake finished.
    package mutating func connectionEnded() -> [Action] {
        guard phase != .closed else { return [] }
        phase = .closed
        closeCode = .abnormalClosure
        return [.closeTransport, .fail(.connectionLost)]
    }

    /// Bytes read from the socket: every whole frame in them is handled in order, until
    /// ``inflationPerCall`` inflated bytes (see ``hasUnreadFrames``).
    package mutating func received(_ bytes: some Collection<UInt8>) -> [Action] {
        guard phase != .closed else { return [] }
        decoder.append(bytes)
        var actions: [Action] = []
        inflatedInCall = 0
        hasUnreadFrames = false
        while phase != .closed {
            if inflatedInCall >= inflationPerCall {
                hasUnreadFrames = decoder.bufferedByteCount > 0
                break
            }
            do {
                let remaining = maximumMessageSize - fragments.count
                let compressedAllowance = Self.compressedAllowance(remaining)
                guard
                    let frame = try decoder.nextFrame(
                        dataAllowance: fragmentsCompressed ? compressedAllowance : remaining,
                        compressedDataAllowance: compressedAllowance)
                else { break }
                try handle(frame, into: &actions)
            } catch {
                actions += failConnection(error)
            }
        }
        return actions
    }

    /// What a compressed frame may carry when its message may still grow by `remaining`
    /// inflated bytes. Incompressible data grows on the wire: zlib ends a block every
    /// 2^(memLevel + 6) symbols and stores it with 5 bytes of header (1/3277 more at its
    /// default memLevel 8, 1/410 at the memLevel 5 some servers use), so the header check
    /// leaves 1/64 more (and room for a last frame that only ends the deflate data), enough
    /// down to memLevel 3; the inflated size (checked while inflating)
    /// is the real bound.
    static func compressedAllowance(_ remaining: Int) -> Int {
        let remaining = max(0, remaining)
        return remaining + remaining / 64 + 64
    }

    // MARK: Frames

    private mutating func handle(_ frame: WebSocketFrame, into actions: inout [Action]) throws(WebSocketProtocolViolation) {
        switch frame.opcode {
        case .ping:
            if phase == .open { actions.append(.write(encode(WebSocketFrame(opcode: .pong, payload: frame.payload)))) }
        case .pong:
            actions.append(.pongReceived(frame.payload))
        case .close:
            actions += try peerClosed(frame.payload)
        case .text, .binary:
            guard fragmentOpcode == nil else {
                throw WebSocketProtocolViolation(.protocolError, "a new message began inside a fragmented one")
            }
            fragmentOpcode = frame.opcode
            fragmentsCompressed = frame.isCompressed
            utf8 = WebSocketUTF8Validator()
            try append(frame, into: &actions)
        case .continuation:
            guard fragmentOpcode != nil else {
                throw WebSocketProtocolViolation(.protocolError, "a continuation frame came without a message to continue")
            }
            try append(frame, into: &actions)
        }
    }

    private mutating func append(_ frame: WebSocketFrame, into actions: inout [Action]) throws(WebSocketProtocolViolation) {
        let isText = fragmentOpcode == .text
        let start = fragments.count
        if fragmentsCompressed, let compression {
            try compression.inflate(frame.payload, isFinal: frame.isFinal, limit: maximumMessageSize, into: &fragments)
            inflatedInCall += fragments.count - start
        } else {
            fragments += frame.payload
        }
        if isText, !utf8.consume(fragments[start...]) {
            throw WebSocketProtocolViolation(.invalidFramePayloadData, "a text message was not valid UTF-8")
        }
        guard frame.isFinal else { return }
        if isText, !utf8.isComplete {
            throw WebSocketProtocolViolation(.invalidFramePayloadData, "a text message ended inside a UTF-8 character")
        }
        let message: WebSocket.Message =
            isText ? .text(String(decoding: fragments, as: UTF8.self)) : .binary(.init(fragments))
        fragments = []
        fragmentOpcode = nil
        fragmentsCompressed = false
        actions.append(.deliver(message))
    }

    private mutating func peerClosed(_ payload: [UInt8]) throws(WebSocketProtocolViolation) -> [Action] {
        var code = WebSocket.CloseCode.noStatusReceived
        var reason = ""
        if payload.count == 1 {
            throw WebSocketProtocolViolation(.protocolError, "a close frame carried one byte, not a code")
        }
        if payload.count >= 2 {
            code = WebSocket.CloseCode(rawValue: UInt16(payload[0]) << 8 | UInt16(payload[1]))
            guard code.isValidFromPeer else {
                throw WebSocketProtocolViolation(.protocolError, "a close frame carried the invalid code \(code.rawValue)")
            }
            var validator = WebSocketUTF8Validator()
            guard validator.consume(payload.dropFirst(2)), validator.isComplete else {
                throw WebSocketProtocolViolation(.invalidFramePayloadData, "a close reason was not valid UTF-8")
            }
            reason = String(decoding: payload.dropFirst(2), as: UTF8.self)
        }
        let echo = phase == .open
        phase = .closed
        closeCode = code
        closeReason = reason
        var actions: [Action] = []
        if echo {
            let answer = code == .noStatusReceived ? [] : WebSocketFrame.closePayload(code: code, reason: "")
            actions.append(.write(encode(WebSocketFrame(opcode: .close, payload: answer))))
        }
        return actions + [.closeTransport, .finish]
    }

    /// Fails the connection (section 7.1.7): our close frame with the violation's code unless one
    /// went out already, then the socket closes and the stream ends with the violation.
    private mutating func failConnection(_ violation: WebSocketProtocolViolation) -> [Action] {
        var actions: [Action] = []
        if phase == .open {
            let payload = WebSocketFrame.closePayload(code: violation.code, reason: "")
            actions.append(.write(encode(WebSocketFrame(opcode: .close, payload: payload))))
        }
        phase = .closed
        closeCode = .abnormalClosure
        fragments = []
        return actions + [.closeTransport, .fail(.violation(violation))]
    }

    private func encode(_ frame: WebSocketFrame) -> [UInt8] {
        WebSocketFrameEncoder.encode(frame, maskingKey: fixedMaskingKey)
    }
}
