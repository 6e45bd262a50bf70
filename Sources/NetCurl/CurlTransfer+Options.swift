#if canImport(CCurl)
    import NetTransportSupport
    import NetToolbox
    import NetBase
    import CCurl
    import Foundation

    extension CurlTransfer {
        /// Sets the request's options on its easy handle: all of them on a new handle or one set up
        /// for another ``CurlHandleProfile``, otherwise only those that differ between requests.
        /// - Throws: ``NetworkError`` when the request cannot be sent (unreadable upload file,
        ///   unusable download location, invalid TLS policy); nothing is sent then.
        func configure() throws(NetworkError) {
            let easy = handle.easy
            let slot = handle.slot
            slot.transfer = Unmanaged.passUnretained(self)
            let profile = CurlHandleProfile(isHTTPS: job.head.isHTTPS, tls: job.head.tlsFingerprint, proxy: job.head.proxy)
            if slot.profile != profile {
                if slot.profile != nil { curl_easy_reset(easy) }
                // Until every option below is set, the handle is configured for nothing.
                slot.profile = nil
                slot.hasProxyHeaders = false
                setHandleOptions()
                // A request with a TLS policy may only travel over TLS: pins mean nothing on plain http.
                _ = netkit_easy_setopt_string(easy, CURLOPT_PROTOCOLS_STR, request.tls == nil ? "http,https" : "https")
                if profile.isHTTPS {
                    _ = netkit_easy_setopt_long(easy, CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_2TLS))
                    // Wait for a connection being set up to say whether it multiplexes, instead of opening more.
                    _ = netkit_easy_setopt_long(easy, CURLOPT_PIPEWAIT, 1)
                }
                try CurlTLS.apply(request.tls, to: easy, host: request.host)
                try CurlProxy.apply(profile.proxy, to: easy)
                slot.profile = profile
            }

            // Redirects are followed by RedirectFollower, one transfer per hop: libcurl would apply
            // this hop's TLS policy and credentials to the next origin.
            try check(netkit_easy_setopt_string(easy, CURLOPT_URL, job.head.url), "URL")
            if let stream = job.stream {
                // A stream may run for ever while data flows: the loop enforces the head's deadline
                // and the idle timeout; libcurl only the optional total (0: none).
                _ = netkit_easy_setopt_long(easy, CURLOPT_TIMEOUT_MS, stream.options.totalTimeout.map(Self.milliseconds) ?? 0)
            } else {
                _ = netkit_easy_setopt_long(easy, CURLOPT_TIMEOUT_MS, Self.milliseconds(job.deadline - .now))
            }
            _ = netkit_easy_setopt_long(easy, CURLOPT_NOPROGRESS, job.progress == nil ? 1 : 0)
            if profile.isHTTPS {
                _ = netkit_easy_setopt_long(easy, CURLOPT_STREAM_WEIGHT, request.target.priority.rawValue)
            }
            configureProxyHeaders()

            var range: String?
            if let destination = request.download {
                download = try CurlDownload(destination: destination)
                range = download?.rangeHeaderValue
            }
            _ = netkit_easy_setopt_string(easy, CURLOPT_RANGE, range)
            // A download to disk takes bigger reads: fewer callbacks and fewer writes per byte.
            _ = netkit_easy_setopt_long(easy, CURLOPT_BUFFERSIZE, download == nil ? Self.bufferSize : Self.downloadBufferSize)
            // Byte ranges refer to the encoded representation: a resumable download asks for none.
            _ = netkit_easy_setopt_string(easy, CURLOPT_ACCEPT_ENCODING, download?.destination.resumable == true ? nil : "")

            try configureMethodAndBody()
            configureHeaders()
        }

        /// The options every request on this handle shares: callbacks, their user data (the slot)
        /// and the transport's settings.
        private func setHandleOptions() {
            let easy = handle.easy
            let slot = Unmanaged.passUnretained(handle.slot).toOpaque()
            _ = netkit_easy_setopt_long(easy, CURLOPT_NOSIGNAL, 1)
            _ = netkit_easy_setopt_ptr(easy, CURLOPT_ERRORBUFFER, handle.errorBuffer)
            _ = netkit_easy_setopt_ptr(easy, CURLOPT_PRIVATE, slot)
            if configuration.verbose { _ = netkit_easy_setopt_long(easy, CURLOPT_VERBOSE, 1) }
            _ = netkit_easy_setopt_long(easy, CURLOPT_CONNECTTIMEOUT_MS, Self.milliseconds(configuration.connectTimeout))

            // Sockets come from the loop's registry, so the stall watchdog can cut one off.
            _ = netkit_easy_setopt_ptr(easy, CURLOPT_OPENSOCKETDATA, slot)
            _ = netkit_easy_setopt_opensocket_callback(easy) { context, _, address in
                CurlHandleSlot.transfer(context).openSocket(address!.pointee)
            }
            _ = netkit_easy_setopt_ptr(easy, CURLOPT_CLOSESOCKETDATA, Unmanaged.passUnretained(engine.sockets).toOpaque())
            _ = netkit_easy_setopt_closesocket_callback(easy) { context, descriptor in
                Unmanaged<CurlSocketRegistry>.fromOpaque(context!).takeUnretainedValue().close(descriptor)
                return 0
            }

            _ = netkit_easy_setopt_ptr(easy, CURLOPT_HEADERDATA, slot)
            _ = netkit_easy_setopt_data_callback(easy, CURLOPT_HEADERFUNCTION) { buffer, size, count, context in
                CurlHandleSlot.transfer(context).receiveHeader(UnsafeRawBufferPointer(start: buffer, count: size * count)) ? size * count : 0
            }
            _ = netkit_easy_setopt_ptr(easy, CURLOPT_WRITEDATA, slot)
            _ = netkit_easy_setopt_data_callback(easy, CURLOPT_WRITEFUNCTION) { buffer, size, count, context in
                CurlHandleSlot.transfer(context).receiveBody(UnsafeRawBufferPointer(start: buffer, count: size * count))
            }
            _ = netkit_easy_setopt_ptr(easy, CURLOPT_XFERINFODATA, slot)
            _ = netkit_easy_setopt_xferinfo_callback(easy) { context, downloadTotal, downloaded, uploadTotal, uploaded in
                CurlHandleSlot.transfer(context).reportProgress(
                    downloadTotal: Int64(downloadTotal), downloaded: Int64(downloaded),
                    uploadTotal: Int64(uploadTotal), uploaded: Int64(uploaded))
                return 0
            }
            _ = netkit_easy_setopt_ptr(easy, CURLOPT_READDATA, slot)
            _ = netkit_easy_setopt_data_callback(easy, CURLOPT_READFUNCTION) { buffer, size, count, context in
                CurlHandleSlot.transfer(context).sendBody(into: UnsafeMutableRawBufferPointer(start: buffer, count: size * count))
            }
            _ = netkit_easy_setopt_ptr(easy, CURLOPT_SEEKDATA, slot)
            _ = netkit_easy_setopt_seek_callback(easy) { context, offset, origin in
                guard origin == SEEK_SET else { return Int32(CURL_SEEKFUNC_CANTSEEK) }
                return CurlHandleSlot.transfer(context).seekBody(to: Int64(offset)) ? Int32(CURL_SEEKFUNC_OK) : Int32(CURL_SEEKFUNC_FAIL)
            }
        }

        /// Sets the method and, when the request sends one, the streamed body (clearing what the
        /// handle's previous request set).
        private func configureMethodAndBody() throws(NetworkError) {
            let easy = handle.easy
            let method = request.method.rawValue
            let upper = job.head.method
            let body = request.body
            guard job.head.sendsBody else {
                // GET also clears a previous request's POST or HEAD.
                _ = netkit_easy_setopt_long(easy, CURLOPT_HTTPGET, 1)
                if upper == "HEAD" { _ = netkit_easy_setopt_long(easy, CURLOPT_NOBODY, 1) }
                _ = netkit_easy_setopt_string(easy, CURLOPT_CUSTOMREQUEST, upper != "GET" && upper != "HEAD" ? method : nil)
                return
            }
            let length: Int64?
            switch body {
            case .file(let url):
                guard let size = body.contentLength else {
                    throw .unreadableFile(
                        target: targetDescription(request.target), url: url,
                        reason: "the file does not exist or its size cannot be read")
                }
                length = size
            default:
                length = body.contentLength ?? 0
            }
            uploadReader = BodyStreamReader(body)
            // POST with a read callback streams the body; another method name rides on top of it.
            _ = netkit_easy_setopt_long(easy, CURLOPT_POST, 1)
            _ = netkit_easy_setopt_string(easy, CURLOPT_CUSTOMREQUEST, upper != "POST" ? method : nil)
            _ = netkit_easy_setopt_off_t(easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(length ?? -1))
        }

        /// Hands the header lines worked out in the caller's task to libcurl (none clears the
        /// previous request's list).
        private func configureHeaders() {
            var list: UnsafeMutablePointer<curl_slist>?
            for line in job.head.headerLines {
                if let appended = curl_slist_append(list, line) { list = appended }
            }
            headerList = list
            _ = netkit_easy_setopt_ptr(handle.easy, CURLOPT_HTTPHEADER, list)
        }

        /// A `Proxy-Authorization` the request carried goes to the proxy alone (never through a
        /// tunnel to the origin), and only when the proxy has no credentials of its own configured.
        private func configureProxyHeaders() {
            guard let line = job.head.proxyAuthorizationLine,
                let server = job.head.proxy, server.kind == .http, server.username == nil,
                let list = curl_slist_append(nil, line)
            else {
                if handle.slot.hasProxyHeaders {
                    _ = netkit_easy_setopt_long(handle.easy, CURLOPT_HEADEROPT, Int(CURLHEADER_UNIFIED))
                    _ = netkit_easy_setopt_ptr(handle.easy, CURLOPT_PROXYHEADER, nil)
                    handle.slot.hasProxyHeaders = false
                }
                return
            }
            proxyHeaderList = list
            handle.slot.hasProxyHeaders = true
            _ = netkit_easy_setopt_long(handle.easy, CURLOPT_HEADEROPT, Int(CURLHEADER_SEPARATE))
            _ = netkit_easy_setopt_ptr(handle.easy, CURLOPT_PROXYHEADER, list)
        }

        private func check(_ code: CURLcode, _ what: String) throws(NetworkError) {
            guard code == CURLE_OK else {
                throw .invalidRequest(
                    target: targetDescription(request.target),
                    reason: "libcurl rejected the \(what): \(String(cString: curl_easy_strerror(code)))")
            }
        }

        /// libcurl's receive buffer for responses kept in memory, and for downloads.
        ///
        /// Small on purpose: libcurl 7.88 inflates everything one read brought in before it
        /// returns, even after the write callback paused the transfer, and zeros compress about
        /// 1000:1, so a 16 KiB read of a gzip bomb held the loop for 16 MiB of inflating while every
        /// other transfer on it waited. At 1 KiB a read inflates to about 1 MiB at most: in the
        /// sick-server soak healthy calls' p99 fell from 0.7-1.2 s to 0.07-0.15 s and calls past
        /// their deadline + 100 ms from 28-154 to 0-4 (Benchmarks/INVESTIGATIONS.md).
        static let bufferSize = 1024
        static let downloadBufferSize = 256 * 1024

        /// Whole milliseconds, at least 1 (0 would mean "no timeout" to libcurl).
        static func milliseconds(_ duration: Duration) -> Int {
            max(1, Int(clamping: duration.millisecondsRoundedUp))
        }
    }
#endif
