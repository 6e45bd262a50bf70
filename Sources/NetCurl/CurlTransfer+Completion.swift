#if canImport(CCurl)
    import NetBase
    import CCurl
    import Foundation

    /// The end of a transfer: libcurl's result code and what was received become a reply or an error.
    extension CurlTransfer {
        /// Builds the result once libcurl reports the transfer done with `code`.
        func finish(_ code: CURLcode) -> Result<CurlReply, any Error> {
            defer { freeHeaderList() }
            switch machine.completion(libcurlSucceeded: code == CURLE_OK) {
            case .failed(let recorded):
                download?.abandon()
                return .failure(recorded ?? CurlErrorMapping.map(code, transfer: self))
            case .headersIncomplete:
                download?.abandon()
                return .failure(NetworkError.invalidResponse(reason: "the connection closed inside the response headers"))
            case .succeeded:
                break
            }
            var libcurlStatus = 0
            _ = netkit_easy_getinfo_long(handle.easy, CURLINFO_RESPONSE_CODE, &libcurlStatus)
            let statusCode = libcurlStatus != 0 ? libcurlStatus : self.statusCode
            var data = body
            var fileURL: URL?
            var reportedStatus = statusCode
            if let download {
                do {
                    switch try download.complete(status: statusCode, headerValue: headerValue) {
                    case .placed(let url, let treatedAsSuccess):
                        fileURL = url
                        data = Data()
                        if treatedAsSuccess { reportedStatus = 200 }
                    case .notPlaced(let errorBody):
                        data = errorBody
                    }
                } catch {
                    download.abandon()
                    return .failure(error)
                }
            }
            return .success(CurlReply(statusCode: reportedStatus, rawHeaders: rawHeaders, body: data, fileURL: fileURL, timings: timings()))
        }

        /// The value of the current response's header `name` (any case).
        func headerValue(_ name: String) -> String? {
            CurlReply.value(of: name, in: rawHeaders)
        }
    }
#endif
