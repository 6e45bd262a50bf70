import NetBase
/// Reads server frames from bytes as they arrive, checking each frame header (RFC 6455,
/// section 5.2) before any of its payload is kept: reserved bits and opcodes, masking (a server
/// never masks), control-frame rules, and the length against what the message may still grow by.
///
/// It keeps at most the bytes of one frame plus what the last read brought; the payload is
/// never buffered past a limit its header broke.
package struct WebSocketFrameDecoder: Sendable {
    private var buffer: [UInt8] = []
    private var start = 0
    /// The header of the frame whose payload is being waited for.
    private var pending: (frame: WebSocketFrame, headerLength: Int, payloadLength: Int)?
    /// Whether permessage-deflate was negotiated: RSV1 may then mark the first frame of a data
    /// message (RFC 7692, section 6); on any other frame, or without it, RSV1 fails the connection.
    private let compression: Bool

    package init(compression: Bool = false) {
        self.compression = compression
    }

    /// Bytes received and not yet returned as frames.
    package var bufferedByteCount: Int { buffer.count - start }

    /// Adds received bytes.
    package mutating func append(_ bytes: some Collection<UInt8>) {
        if start > 0, start >= buffer.count / 2 {
            buffer.removeFirst(start)
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// The next whole frame, or `nil` until more bytes arrive.
    /// - Parameter dataAllowance: How many payload bytes a data frame may carry (what the
    ///   message being read may still grow by before the maximum message size).
    /// - Parameter compressedDataAllowance: The same for a frame that sets RSV1 (the first frame
    ///   of a compressed message, whose payload is counted before inflation); `nil` for
    ///   `dataAllowance`.
    /// - Throws: The violation that fails the connection; the decoder is then unusable.
    package mutating func nextFrame(
        dataAllowance: Int, compressedDataAllowance: Int? = nil
    ) throws(WebSocketProtocolViolation) -> WebSocketFrame? {
        if pending == nil {
            guard
                let header = try readHeader(
                    dataAllowance: dataAllowance, compressedDataAllowance: compressedDataAllowance ?? dataAllowance)
            else { return nil }
            pending = header
        }
        guard let (frame, headerLength, payloadLength) = pending,
            bufferedByteCount - headerLength >= payloadLength  // no sum: a length near Int.max must not overflow
        else { return nil }
        var whole = frame
        let payloadStart = start + headerLength
        whole.payload = Array(buffer[payloadStart..<(payloadStart + payloadLength)])
        start = payloadStart + payloadLength
        pending = nil
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: buffer.capacity <= 64 * 1024)
            start = 0
        }
        return whole
    }

    /// The frame header at the front of the buffer, checked; `nil` while it is incomplete.
    private func readHeader(
        dataAllowance: Int, compressedDataAllowance: Int
    ) throws(WebSocketProtocolViolation) -> (frame: WebSocketFrame, headerLength: Int, payloadLength: Int)? {
        guard bufferedByteCount >= 2 else { return nil }
        let first = buffer[start]
        let second = buffer[start + 1]
        let isCompressed = first & 0x40 != 0
        if first & 0x30 != 0 || (isCompressed && !compression) {
            throw WebSocketProtocolViolation(.protocolError, "a frame set reserved bits no extension was negotiated for")
        }
        guard let opcode = WebSocketFrame.Opcode(rawValue: first & 0x0F) else {
            throw WebSocketProtocolViolation(.protocolError, "a frame used reserved opcode \(first & 0x0F)")
        }
        if isCompressed, opcode != .text, opcode != .binary {
            throw WebSocketProtocolViolation(
                .protocolError, "a \(opcode.isControl ? "control" : "continuation") frame set RSV1 (only a message's first frame may)")
        }
        if second & 0x80 != 0 {
            throw WebSocketProtocolViolation(.protocolError, "the server sent a masked frame")
        }
        let isFinal = first & 0x80 != 0
        let shortLength = Int(second & 0x7F)
        if opcode.isControl {
            if !isFinal { throw WebSocketProtocolViolation(.protocolError, "a control frame was fragmented") }
            if shortLength > WebSocketFrame.maximumControlPayload {
                throw WebSocketProtocolViolation(.protocolError, "a control frame announced more than 125 bytes")
            }
        }
        let extra = shortLength == 126 ? 2 : shortLength == 127 ? 8 : 0
        guard bufferedByteCount >= 2 + extra else { return nil }
        var announced = UInt64(shortLength)
        if extra > 0 {
            announced = 0
            for index in 0..<extra { announced = announced << 8 | UInt64(buffer[start + 2 + index]) }
        }
        if announced > UInt64(Int64.max) {
            throw WebSocketProtocolViolation(.protocolError, "a frame length had its most significant bit set")
        }
        if !opcode.isControl, announced > UInt64(max(0, isCompressed ? compressedDataAllowance : dataAllowance)) {
            throw WebSocketProtocolViolation(
                .messageTooBig, "a frame header announced \(announced) bytes, past the maximum message size")
        }
        return (WebSocketFrame(isFinal: isFinal, opcode: opcode, isCompressed: isCompressed), 2 + extra, Int(announced))
    }
}
