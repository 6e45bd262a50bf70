#if canImport(CCurl)
    import NetBase
    import CCurl
    import Foundation

    extension CurlTransfer {
        /// Sets every option for the request on the (freshly reset) easy handle.
        /// - Throws: ``NetworkError`` when the request cannot be sent (unreadable upload file,
        ///   unusable download location, invalid TLS policy); nothing is sent then.
        func configure() throws(NetworkError) {
            let easy = handle.easy
            let context = Unmanaged.passUnretained(self).toOpaque()
            let isHTTPS = request.url.scheme?.lowercased() == "https"

            try check(netkit_easy_setopt_string(easy, CURLOPT_URL, job.head.url), "URL")
            _ = netkit_easy_setopt_long(easy, CURLOPT_NOSIGNAL, 1)
            _ = netkit_easy_setopt_ptr(easy, CURLOPT_ERRORBUFFER, handle.errorBuffer)
            _ = netkit_easy_setopt_ptr(easy, CURLOPT_PRIVATE, context)
            // A request with a TLS policy may only travel over TLS: pins mean nothing on plain http.
            _ = netkit_easy_setopt_string(easy, CURLOPT_PROTOCOLS_STR, request.tls == nil ? "http,https" : "https")
            if configuration.verbose { _ = netkit_easy_setopt_long(easy, CURLOPT_VERBOSE, 1) }

            if let stream = job.stream {
                // A stream may run for ever while data flows: the loop enforces the head's deadline
                // and the idle timeout; libcurl only the optional total.
                if let total = stream.options.totalTimeout {
                    _ = netkit_easy_setopt_long(easy, CURLOPT_TIMEOUT_MS, Self.milliseconds(total))
                }
            } else {
                _ = netkit_easy_setopt_long(easy, CURLOPT_TIMEOUT_MS, Self.milliseconds(job.deadline - .now))
            }
            _ = netkit_easy_setopt_long(easy, CURLOPT_CONNECTTIMEOUT_MS, Self.milliseconds(configuration.connectTimeout))

            // Sockets come from the transport's registry, so the stall watchdog can cut one off.
            _ = netkit_easy_setopt_ptr(easy, CURLOPT_OPENSOCKETDATA, context)
            _ = netkit_easy_setopt_opensocket_callback(easy) { context, _, address in
                let transfer = Unmanaged<CurlTransfer>.fromOpaque(context!).takeUnretainedValue()
                return transfer.openSocket(address!.pointee)
            }
            _ = netkit_easy_setopt_ptr(easy, CURLOPT_CLOSESOCKETDATA, Unmanaged.passUnretained(engine.sockets).toOpaque())
            _ = netkit_easy_setopt_closesocket_callback(easy) { context, descriptor in
                Unmanaged<CurlSocketRegistry>.fromOpaque(context!).takeUnretainedValue().close(descriptor)
                return 0
            }

            _ = netkit_easy_setopt_ptr(easy, CURLOPT_HEADERDATA, context)
            _ = netkit_easy_setopt_data_callback(easy, CURLOPT_HEADERFUNCTION) { buffer, size, count, context in
                let transfer = Unmanaged<CurlTransfer>.fromOpaque(context!).takeUnretainedValue()
                return transfer.receiveHeader(UnsafeRawBufferPointer(start: buffer, count: size * count)) ? size * count : 0
            }
            _ = netkit_easy_setopt_ptr(easy, CURLOPT_WRITEDATA, context)
            _ = netkit_easy_setopt_data_callback(easy, CURLOPT_WRITEFUNCTION) { buffer, size, count, context in
                let transfer = Unmanaged<CurlTransfer>.fromOpaque(context!).takeUnretainedValue()
                return transfer.receiveBody(UnsafeRawBufferPointer(start: buffer, count: size * count))
            }
            if job.progress != nil {
                _ = netkit_easy_setopt_long(easy, CURLOPT_NOPROGRESS, 0)
                _ = netkit_easy_setopt_ptr(easy, CURLOPT_XFERINFODATA, context)
                _ = netkit_easy_setopt_xferinfo_callback(easy) { context, downloadTotal, downloaded, uploadTotal, uploaded in
                    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context!).takeUnretainedValue()
                    transfer.reportProgress(
                        downloadTotal: Int64(downloadTotal), downloaded: Int64(downloaded),
                        uploadTotal: Int64(uploadTotal), uploaded: Int64(uploaded))
                    return 0
                }
            }

            // Redirects are followed by RedirectFollower, one transfer per hop: libcurl would apply
            // this hop's TLS policy and credentials to the next origin.
            if isHTTPS {
                _ = netkit_easy_setopt_long(easy, CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_2TLS))
                // Wait for a connection being set up to say whether it multiplexes, instead of opening more.
                _ = netkit_easy_setopt_long(easy, CURLOPT_PIPEWAIT, 1)
                _ = netkit_easy_setopt_long(easy, CURLOPT_STREAM_WEIGHT, request.target.priority.rawValue)
            }
            try CurlTLS.apply(request.tls, to: easy, host: request.host)
            try CurlProxy.apply(for: request, configuration: configuration, to: easy)
            configureProxyHeaders()

            if let destination = request.download {
                download = try CurlDownload(destination: destination)
                if let range = download?.rangeHeaderValue {
                    _ = netkit_easy_setopt_string(easy, CURLOPT_RANGE, range)
                }
            }
            // Byte ranges refer to the encoded representation: a resumable download asks for none.
            if download?.destination.resumable != true {
                _ = netkit_easy_setopt_string(easy, CURLOPT_ACCEPT_ENCODING, "")
            }

            try configureMethodAndBody(context: context)
            configureHeaders()
        }

        /// Sets the method and, when the request sends one, the streamed body.
        private func configureMethodAndBody(context: UnsafeMutableRawPointer) throws(NetworkError) {
            let easy = handle.easy
            let method = request.method.rawValue
            let upper = job.head.method
            let body = request.body
            if upper == "HEAD" {
                _ = netkit_easy_setopt_long(easy, CURLOPT_NOBODY, 1)
            }
            guard job.head.sendsBody else {
                if upper != "GET", upper != "HEAD" {
                    _ = netkit_easy_setopt_string(easy, CURLOPT_CUSTOMREQUEST, method)
                }
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
            if upper != "POST" {
                _ = netkit_easy_setopt_string(easy, CURLOPT_CUSTOMREQUEST, method)
            }
            _ = netkit_easy_setopt_off_t(easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(length ?? -1))
            _ = netkit_easy_setopt_ptr(easy, CURLOPT_READDATA, context)
            _ = netkit_easy_setopt_data_callback(easy, CURLOPT_READFUNCTION) { buffer, size, count, context in
                let transfer = Unmanaged<CurlTransfer>.fromOpaque(context!).takeUnretainedValue()
                return transfer.sendBody(into: UnsafeMutableRawBufferPointer(start: buffer, count: size * count))
            }
            _ = netkit_easy_setopt_ptr(easy, CURLOPT_SEEKDATA, context)
            _ = netkit_easy_setopt_seek_callback(easy) { context, offset, origin in
                let transfer = Unmanaged<CurlTransfer>.fromOpaque(context!).takeUnretainedValue()
                guard origin == SEEK_SET else { return Int32(CURL_SEEKFUNC_CANTSEEK) }
                return transfer.seekBody(to: Int64(offset)) ? Int32(CURL_SEEKFUNC_OK) : Int32(CURL_SEEKFUNC_FAIL)
            }
        }

        /// Hands the header lines worked out in the caller's task to libcurl.
        private func configureHeaders() {
            var list: UnsafeMutablePointer<curl_slist>?
            for line in job.head.headerLines {
                if let appended = curl_slist_append(list, line) { list = appended }
            }
            headerList = list
            if let list { _ = netkit_easy_setopt_ptr(handle.easy, CURLOPT_HTTPHEADER, list) }
        }

        /// A `Proxy-Authorization` the request carried goes to the proxy alone (never through a
        /// tunnel to the origin), and only when the proxy has no credentials of its own configured.
        private func configureProxyHeaders() {
            guard let line = job.head.proxyAuthorizationLine,
                let server = CurlProxy.server(for: request, configuration: configuration), server.kind == .http, server.username == nil,
                let list = curl_slist_append(nil, line)
            else { return }
            proxyHeaderList = list
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

        /// Whole milliseconds, at least 1 (0 would mean "no timeout" to libcurl).
        static func milliseconds(_ duration: Duration) -> Int {
            max(1, Int(clamping: duration.millisecondsRoundedUp))
        }
    }
#endif
