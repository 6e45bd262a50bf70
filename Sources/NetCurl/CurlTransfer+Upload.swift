#if canImport(CCurl)
    import NetTransportSupport
    import NetBase
    import CCurl
    import Foundation

    /// The request body: libcurl reads it through these (loop thread, inside `curl_multi_perform`).
    extension CurlTransfer {
        /// Fills `buffer` with upload bytes; 0 ends the body.
        func sendBody(into buffer: UnsafeMutableRawBufferPointer) -> Int {
            engine.watchdog.beat()
            guard let uploadReader else { return 0 }
            do {
                return try uploadReader.read(into: buffer)
            } catch {
                fail(unreadableBody(error))
                return Int(CURL_READFUNC_ABORT)
            }
        }

        /// Rewinds the upload (libcurl resends a body after a redirect or on a dead reused connection).
        func seekBody(to offset: Int64) -> Bool {
            let reader = BodyStreamReader(request.body)
            var remaining = offset
            if remaining > 0 {
                let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 1)
                defer { scratch.deallocate() }
                while remaining > 0 {
                    let slice = UnsafeMutableRawBufferPointer(rebasing: scratch[0..<Int(min(Int64(scratch.count), remaining))])
                    guard let count = try? reader.read(into: slice), count > 0 else { return false }
                    remaining -= Int64(count)
                }
            }
            uploadReader = reader
            return true
        }

        func unreadableBody(_ error: any Error) -> NetworkError {
            var url = request.url
            if case .file(let file) = request.body { url = file }
            return .unreadableFile(target: targetDescription(request.target), url: url, reason: "\(error)", underlying: error)
        }
    }
#endif
