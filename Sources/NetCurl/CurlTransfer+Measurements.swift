#if canImport(CCurl)
    import NetBase
    import CCurl
    import Foundation

    /// What libcurl measured: progress while the transfer runs, timings and byte counts at its end.
    extension CurlTransfer {
        /// Progress from libcurl; forwards changes only.
        func reportProgress(downloadTotal: Int64, downloaded: Int64, uploadTotal: Int64, uploaded: Int64) {
            engine.watchdog.beat()
            guard let progress = job.progress else { return }
            if uploaded != reportedUpload, uploaded > 0 || uploadTotal > 0 {
                reportedUpload = uploaded
                progress(TransferProgress(direction: .upload, completedBytes: uploaded, totalBytes: uploadTotal > 0 ? uploadTotal : nil))
            }
            if downloaded != reportedDownload, downloaded > 0 || downloadTotal > 0 {
                reportedDownload = downloaded
                let offset = download?.resumeOffset ?? 0
                let total = downloadTotal > 0 ? downloadTotal + (download?.appending == true ? offset : 0) : nil
                let done = downloaded + (download?.appending == true ? offset : 0)
                progress(TransferProgress(direction: .download, completedBytes: done, totalBytes: total))
            }
        }

        /// The transfer's timings and byte counts, as libcurl measured them.
        func timings() -> CurlTimings {
            let easy = handle.easy
            // The `_T` infos are `curl_off_t`: times in microseconds, sizes in bytes.
            func offset(_ info: CURLINFO) -> Int64 {
                var value: curl_off_t = 0
                _ = netkit_easy_getinfo_off_t(easy, info, &value)
                return Int64(value)
            }
            func micros(_ info: CURLINFO) -> Int64 { offset(info) }
            func bytes(_ info: CURLINFO) -> Int64 { offset(info) }
            func long(_ info: CURLINFO) -> Int {
                var value = 0
                _ = netkit_easy_getinfo_long(easy, info, &value)
                return value
            }
            var address: UnsafeMutableRawPointer?
            _ = netkit_easy_getinfo_ptr(easy, CURLINFO_PRIMARY_IP, &address)
            let tcpConnect = micros(CURLINFO_CONNECT_TIME_T)
            let tlsConnect = micros(CURLINFO_APPCONNECT_TIME_T)
            return CurlTimings(
                startDate: startDate, totalMicros: micros(CURLINFO_TOTAL_TIME_T),
                connectMicros: max(tlsConnect, tcpConnect),
                firstByteMicros: micros(CURLINFO_STARTTRANSFER_TIME_T),
                bytesSent: bytes(CURLINFO_SIZE_UPLOAD_T), bytesReceived: bytes(CURLINFO_SIZE_DOWNLOAD_T),
                httpVersion: Self.versionName(long(CURLINFO_HTTP_VERSION)),
                phases: CurlTimings.Phases(
                    nameLookupMicros: micros(CURLINFO_NAMELOOKUP_TIME_T), tcpConnectMicros: tcpConnect,
                    tlsConnectMicros: tlsConnect, preTransferMicros: micros(CURLINFO_PRETRANSFER_TIME_T),
                    newConnections: long(CURLINFO_NUM_CONNECTS),
                    remoteAddress: address.map { String(cString: $0.assumingMemoryBound(to: CChar.self)) },
                    remotePort: long(CURLINFO_PRIMARY_PORT))
            )
        }

        static func versionName(_ version: Int) -> String? {
            switch version {
            case Int(CURL_HTTP_VERSION_1_0): "HTTP/1.0"
            case Int(CURL_HTTP_VERSION_1_1): "HTTP/1.1"
            case Int(CURL_HTTP_VERSION_2_0): "HTTP/2"
            case Int(CURL_HTTP_VERSION_3): "HTTP/3"
            default: nil
            }
        }
    }
#endif
