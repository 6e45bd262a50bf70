#if canImport(CCurl)
    import NetBase
    import CCurl
    import Foundation

    /// A connection libcurl opened with `CURLOPT_CONNECT_ONLY` (TCP, the proxy tunnel, TLS with
    /// the request's policy), read and written without blocking through `curl_easy_recv` and
    /// `curl_easy_send`, so TLS stays libcurl's. Used on one thread only.
    struct CurlWebSocketSocket {
        /// What a read or a write did.
        enum Outcome: Equatable {
            case moved(Int)
            case wouldBlock
            case ended
            case failed(Int)
        }

        let easy: UnsafeMutableRawPointer
        let descriptor: curl_socket_t

        /// Reads into `buffer`.
        func receive(into buffer: inout [UInt8]) -> Outcome {
            var count = 0
            let code = buffer.withUnsafeMutableBytes { curl_easy_recv(easy, $0.baseAddress, $0.count, &count) }
            switch code {
            case CURLE_OK: return count == 0 ? .ended : .moved(count)
            case CURLE_AGAIN: return .wouldBlock
            default: return .failed(Int(code.rawValue))
            }
        }

        /// Writes from the front of `bytes[offset...]`.
        func send(_ bytes: [UInt8], from offset: Int) -> Outcome {
            var count = 0
            let code = bytes.withUnsafeBytes { curl_easy_send(easy, $0.baseAddress! + offset, $0.count - offset, &count) }
            switch code {
            case CURLE_OK: return .moved(count)
            case CURLE_AGAIN: return .wouldBlock
            default: return .failed(Int(code.rawValue))
            }
        }

        /// Waits until the socket is readable (`read`) or writable (`write`), the wake pipe has a
        /// byte, or `timeout` passes (`nil`: no limit).
        func wait(read: Bool, write: Bool, wake: Int32, until deadline: ContinuousClock.Instant?) {
            var descriptors = Self.pollDescriptors(socket: descriptor, read: read, write: write, wake: wake)
            var milliseconds: Int32 = -1
            if let deadline {
                let remaining = deadline - .now
                milliseconds =
                    remaining <= .zero ? 0 : Int32(clamping: remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000 + 1)
            }
            _ = poll(&descriptors, 2, milliseconds)
        }

        /// What `poll` watches: the wake pipe, and the socket only while it is to be read or
        /// written. A socket polled for no events still reports `POLLHUP` and `POLLERR`, which
        /// would make `poll` return at once, over and over, while the inbox is full (a busy loop);
        /// left out (`fd` -1), it is ignored until there is room again.
        static func pollDescriptors(socket: curl_socket_t, read: Bool, write: Bool, wake: Int32) -> [pollfd] {
            var events: Int16 = 0
            if read { events |= Int16(POLLIN) }
            if write { events |= Int16(POLLOUT) }
            return [
                pollfd(fd: events == 0 ? -1 : socket, events: events, revents: 0), pollfd(fd: wake, events: Int16(POLLIN), revents: 0),
            ]
        }
    }
#endif
