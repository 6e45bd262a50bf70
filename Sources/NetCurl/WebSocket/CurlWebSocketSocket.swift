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

        /// The epoll events to wait for: `nil` when the socket is neither read nor written, so it
        /// leaves the loop's epoll set (a hang-up would otherwise be reported again and again).
        static func epollEvents(read: Bool, write: Bool) -> UInt32? {
            guard read || write else { return nil }
            return (read ? netkit_epoll_in | netkit_epoll_hangup : 0) | (write ? netkit_epoll_out : 0)
        }
    }
#endif
