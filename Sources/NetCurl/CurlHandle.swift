#if canImport(CCurl)
    import NetBase
    import CCurl
    import Foundation

    /// An easy handle, its error buffer and its callbacks' slot, reused across requests; it keeps
    /// its options between them (see ``CurlHandleSlot``).
    struct CurlHandle {
        let easy: UnsafeMutableRawPointer
        let errorBuffer: UnsafeMutablePointer<CChar>
        let slot = CurlHandleSlot()

        init?() {
            guard let easy = curl_easy_init() else { return nil }
            self.easy = easy
            errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
            errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
        }

        /// Readies the handle for its next request (its options stay).
        func reset() {
            slot.transfer = nil
            errorBuffer[0] = 0
        }

        func destroy() {
            curl_easy_cleanup(easy)
            errorBuffer.deallocate()
        }

        /// libcurl's detailed message for the last failure, if it wrote one.
        var errorMessage: String? {
            errorBuffer[0] == 0 ? nil : String(cString: errorBuffer)
        }
    }
#endif
