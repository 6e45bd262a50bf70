#if canImport(CCurl)
    import NetWebSocketCore
    import NetBase
    import CZlib

    /// permessage-deflate (RFC 7692) with zlib's raw deflate for one curl WebSocket: an inflate
    /// stream for the server's messages and a deflate stream for ours, each kept between
    /// messages (context takeover) unless the handshake said `*_no_context_takeover`.
    ///
    /// Inflating works in chunks of ``chunkSize`` output bytes and checks the limit after each,
    /// so a deflate bomb fails with 1009 holding at most the limit plus one chunk. Used on the
    /// connection's WebSocket loop thread only; the streams are freed when it is released (the connection
    /// ended: closed, failed or abandoned).
    final class CurlWebSocketDeflate: WebSocketCompression {
        /// The output bytes one inflate or deflate call may produce.
        static let chunkSize = 64 * 1024
        /// What section 7.2.1 strips from a compressed message, and 7.2.2 appends before inflating.
        static let tail: [UInt8] = [0x00, 0x00, 0xFF, 0xFF]

        let parameters: WebSocketDeflateParameters
        private let inflater: UnsafeMutablePointer<z_stream>
        private let inflaterReady: Bool
        /// Whether the inflate stream is new (made, or reset after a final block or for
        /// `server_no_context_takeover`) and read nothing since: it is between blocks.
        private var inflaterFresh = true
        /// `nil` when messages go out uncompressed: zlib cannot make raw deflate with the
        /// 256-byte window `client_max_window_bits=8` asks for (section 6 lets any message go
        /// out uncompressed), or its stream could not be made.
        private let deflater: UnsafeMutablePointer<z_stream>?
        private var chunk = [UInt8](repeating: 0, count: chunkSize)

        init(_ parameters: WebSocketDeflateParameters) {
            self.parameters = parameters
            inflater = .allocate(capacity: 1)
            inflater.initialize(to: z_stream())
            // A 32 KiB window reads what any smaller window wrote (section 7.1.2.1).
            inflaterReady = netkit_inflate_init_raw(inflater) == Z_OK
            var deflater: UnsafeMutablePointer<z_stream>?
            if parameters.clientMaxWindowBits > 8 {
                let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
                stream.initialize(to: z_stream())
                if netkit_deflate_init_raw(stream, Int32(parameters.clientMaxWindowBits)) == Z_OK {
                    deflater = stream
                } else {
                    stream.deallocate()
                }
            }
            self.deflater = deflater
        }

        deinit {
            if inflaterReady { inflateEnd(inflater) }
            inflater.deallocate()
            if let deflater {
                deflateEnd(deflater)
                deflater.deallocate()
            }
        }

        // MARK: Sending

        func compress(_ payload: [UInt8]) -> [UInt8]? {
            guard let deflater else { return nil }
            var output: [UInt8] = []
            output.reserveCapacity(payload.count / 2 + 64)
            var failed = false
            payload.withUnsafeBufferPointer { input in
                var fed = 0
                defer { (deflater.pointee.next_in, deflater.pointee.avail_in) = (nil, 0) }
                repeat {
                    feed(deflater, from: input, fed: &fed)
                    let (code, produced) = step(deflater) { CZlib.deflate($0, Z_SYNC_FLUSH) }
                    output += chunk[..<produced]
                    if code != Z_OK, code != Z_BUF_ERROR {
                        failed = true
                        break
                    }
                } while fed < input.count || deflater.pointee.avail_in > 0 || deflater.pointee.avail_out == 0
            }
            if failed {
                // Nothing of this message reached the peer: start afresh and send it as it is.
                deflateReset(deflater)
                return nil
            }
            if output.count >= 4, Array(output.suffix(4)) == Self.tail { output.removeLast(4) }
            if parameters.clientNoContextTakeover { deflateReset(deflater) }
            return output
        }

        // MARK: Receiving

        func inflate(_ payload: [UInt8], isFinal: Bool, limit: Int, into output: inout [UInt8]) throws(WebSocketProtocolViolation) {
            guard inflaterReady else {
                throw WebSocketProtocolViolation(.internalServerError, "zlib could not start inflating a compressed message")
            }
            try run(payload, limit: limit, into: &output)
            guard isFinal else { return }
            // A message that ended exactly where a final block (BFINAL) ended the stream has
            // no flush to complete: the tail would start a stored block in the fresh stream.
            if !inflaterFresh { try run(Self.tail, limit: limit, into: &output) }
            // Every message ends between blocks (section 7.2.2); anything else is truncated data
            // the next message would be read against.
            guard inflaterFresh || inflater.pointee.data_type & 128 != 0 else {
                throw WebSocketProtocolViolation(.invalidFramePayloadData, "a compressed message ended inside a deflate block")
            }
            if parameters.serverNoContextTakeover { resetInflater() }
        }

        /// Starts a new deflate stream; the input not read yet stays.
        private func resetInflater() {
            inflateReset(inflater)
            inflaterFresh = true
        }

        /// Feeds `input` to the inflate stream, appending its output chunk by chunk. A final
        /// block (BFINAL) ends the stream: what follows it is read by a fresh one.
        private func run(_ input: [UInt8], limit: Int, into output: inout [UInt8]) throws(WebSocketProtocolViolation) {
            var failure: WebSocketProtocolViolation?
            input.withUnsafeBufferPointer { input in
                var fed = 0
                defer { (inflater.pointee.next_in, inflater.pointee.avail_in) = (nil, 0) }
                repeat {
                    feed(inflater, from: input, fed: &fed)
                    let offered = inflater.pointee.avail_in
                    let (code, produced) = step(inflater) { CZlib.inflate($0, Z_SYNC_FLUSH) }
                    if inflater.pointee.avail_in != offered || produced > 0 { inflaterFresh = false }
                    if produced > limit - output.count {
                        failure = WebSocketProtocolViolation(
                            .messageTooBig, "a compressed message inflated past the maximum message size of \(limit) bytes")
                        return
                    }
                    if output.count + produced > output.capacity {
                        // Doubling, but never past the limit: the array's own growth could reserve twice it.
                        output.reserveCapacity(min(limit, max(output.capacity * 2, output.count + produced)))
                    }
                    output += chunk[..<produced]
                    switch code {
                    case Z_OK: continue
                    case Z_STREAM_END: resetInflater()
                    case Z_BUF_ERROR where produced == 0 && inflater.pointee.avail_in == 0 && fed == input.count:
                        return  // all input read, nothing pending
                    default:
                        failure = Self.violation(zlibCode: code)
                        return
                    }
                } while fed < input.count || inflater.pointee.avail_in > 0 || inflater.pointee.avail_out == 0
            }
            if let failure { throw failure }
        }

        /// What a zlib error while inflating fails the connection with: 1007 for data that is
        /// not deflate (or asks for a dictionary), 1011 for zlib's own trouble (memory, a broken
        /// stream, no progress).
        static func violation(zlibCode code: Int32) -> WebSocketProtocolViolation {
            switch code {
            case Z_DATA_ERROR, Z_NEED_DICT:
                WebSocketProtocolViolation(
                    .invalidFramePayloadData, "a compressed message was not valid deflate data (zlib error \(code))")
            default:
                WebSocketProtocolViolation(.internalServerError, "zlib failed while inflating a compressed message (zlib error \(code))")
            }
        }

        /// Gives `stream` the next slice of `input` once it read the last (zlib counts input in
        /// 32 bits; a slice is at most 1 GiB).
        private func feed(_ stream: UnsafeMutablePointer<z_stream>, from input: UnsafeBufferPointer<UInt8>, fed: inout Int) {
            guard stream.pointee.avail_in == 0, fed < input.count, let base = input.baseAddress else { return }
            let count = min(input.count - fed, 1 << 30)
            stream.pointee.next_in = UnsafeMutablePointer(mutating: base + fed)
            stream.pointee.avail_in = UInt32(count)
            fed += count
        }

        /// One call of `body` (inflate or deflate) writing into ``chunk``.
        /// - Returns: zlib's code and how many bytes it wrote.
        private func step(_ stream: UnsafeMutablePointer<z_stream>, _ body: (UnsafeMutablePointer<z_stream>) -> Int32) -> (Int32, Int) {
            chunk.withUnsafeMutableBufferPointer { buffer in
                stream.pointee.next_out = buffer.baseAddress
                stream.pointee.avail_out = UInt32(buffer.count)
                let code = body(stream)
                let produced = buffer.count - Int(stream.pointee.avail_out)
                stream.pointee.next_out = nil
                return (code, produced)
            }
        }
    }
#endif
