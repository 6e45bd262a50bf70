#if canImport(CCurl)
    import NetTransportSupport
    import NetToolbox
    import NetBase
    import CCurl
    import Foundation

    /// One request on the loop thread: its easy handle's options, the callbacks' state and the
    /// response being assembled. Only the loop thread touches it.
    ///
    /// This file holds its state, the response callbacks (headers, body, streams) and the
    /// completion; the extensions hold its other jobs: `+Options` (the easy handle's options),
    /// `+Connection` (deadlines, its sockets), `+Upload` (the request body), `+Measurements`
    /// (progress, timings, byte counts).
    final class CurlTransfer {
        /// The request and who waits for it; the transfer answers through it (``CurlJob/end(_:)``).
        private(set) var job: CurlJob
        let handle: CurlHandle
        let configuration: CurlTransport.Configuration
        let startDate = Date()
        let startInstant = ContinuousClock.now

        var headerList: UnsafeMutablePointer<curl_slist>?
        /// Headers for the proxy only (`CURLOPT_PROXYHEADER`).
        var proxyHeaderList: UnsafeMutablePointer<curl_slist>?
        var uploadReader: BodyStreamReader?
        var download: CurlDownload?
        /// The connection this transfer reads, once known (for the stall watchdog's verdicts).
        var socketID: CurlSocketRegistry.SocketID?

        /// Phases, pauses and the first failure (see ``CurlTransferStateMachine``).
        private(set) var machine = CurlTransferStateMachine(yieldEvery: CurlTransfer.yieldEvery)
        // The response being received (reset by each status line: 1xx, redirects).
        /// Header lines as received; parsed into strings in the caller's task (``CurlReply``).
        var rawHeaders: [UInt8] = []
        var body = Data()
        /// Header bytes of every response of this transfer (interim ones included), for the bound.
        private var headerBytes = 0
        /// Body bytes of the current response after decoding, for the size limit.
        private var bodyBytes: Int64 = 0

        /// How many body bytes one transfer takes before letting the others through. A bulk or
        /// hostile body (an endless one, a decompression bomb) would otherwise keep the loop thread
        /// for a whole `curl_multi_perform` pass, and every other transfer waits behind it.
        static let yieldEvery = 128 * 1024
        /// The last time a streamed body moved (or was resumed), for the idle timeout.
        private var lastActivity = ContinuousClock.now
        /// The byte counts last forwarded to the progress handler (``reportProgress(downloadTotal:downloaded:uploadTotal:uploaded:)``).
        var reportedUpload: Int64 = -1
        var reportedDownload: Int64 = -1

        /// The engine, for commands a stream's reader triggers (unpause, cancel). Strong: it runs
        /// this transfer's loop anyway, and a stopped engine ignores late commands.
        let engine: CurlEngine

        init(job: CurlJob, handle: CurlHandle, configuration: CurlTransport.Configuration, engine: CurlEngine) {
            self.job = job
            self.engine = engine
            self.handle = handle
            self.configuration = configuration
        }

        var request: Request { job.request }

        /// The status of the response being received (0 before the first status line).
        var statusCode: Int { machine.statusCode }
        /// Whether the blank line that ends the current response's headers arrived.
        var headersComplete: Bool { machine.headersComplete }
        /// A streamed response's head went to the caller; the body now goes to the job's sink and
        /// the end of the transfer finishes the sink instead of the continuation.
        var headDelivered: Bool { machine.headDelivered }
        /// The stream is paused until its reader has room (backpressure).
        var isPaused: Bool { machine.isPausedForReader }
        /// Paused after a share of body bytes so that the loop serves other transfers before this
        /// one reads on (``yieldEvery``); the loop resumes it on its next pass.
        var hasYielded: Bool { machine.hasYielded }
        /// The failure a callback recorded (unreadable upload file, disk full, a limit); it explains
        /// the curl code.
        var callbackError: NetworkError? { machine.failure }

        /// Records why a callback stops the transfer (the first reason wins).
        func fail(_ error: NetworkError) {
            machine.fail(error)
        }

        /// Releases what the transfer holds after it was removed from the multi handle unfinished
        /// (cancelled, failed to start). A resumable download keeps its partial file.
        func abandon() {
            freeHeaderList()
            download?.abandon()
        }

        func freeHeaderList() {
            if let headerList { curl_slist_free_all(headerList) }
            if let proxyHeaderList { curl_slist_free_all(proxyHeaderList) }
            headerList = nil
            proxyHeaderList = nil
        }

        // MARK: Callbacks (loop thread, inside curl_multi_perform)

        /// A header line, CRLF included. A status line starts a new response. Returns false to stop
        /// the transfer (too many header bytes, a body that cannot fit, conflicting lengths).
        func receiveHeader(_ line: UnsafeRawBufferPointer) -> Bool {
            engine.watchdog.beat()
            guard !stopsAtDeadline() else { return false }
            headerBytes += line.count
            guard headerBytes <= request.limits.maxHeaderBytes else {
                fail(
                    .invalidResponse(
                        reason: "the response headers are larger than the limit of \(request.limits.maxHeaderBytes) bytes (maxHeaderBytes)"))
                return false
            }
            if line.count > 5, line[0] == 0x48, line[1] == 0x54, line[2] == 0x54, line[3] == 0x50, line[4] == 0x2F {  // "HTTP/"
                guard machine.statusLine(Self.parseStatus(line[...])) else { return false }
                noteConnection()
                bodyBytes = 0
                rawHeaders.removeAll(keepingCapacity: true)
                body.removeAll(keepingCapacity: true)
                download?.responseStarted()
                return true
            }
            if line.count <= 2, line.allSatisfy({ $0 == 0x0D || $0 == 0x0A }) {
                guard checkHeaders() else { return false }
                if machine.headersEnded(streamsSuccess: job.stream != nil) { deliverHead() }
                return true
            }
            rawHeaders.append(contentsOf: line)
            return true
        }

        /// Checks a complete header block: one Content-Length at most, and a body that fits the limit.
        private func checkHeaders() -> Bool {
            let lengths = CurlReply.values(of: "Content-Length", in: rawHeaders)
            guard !lengths.isEmpty else { return true }
            switch ResponseIntegrity.contentLength(lengths) {
            case .failure(let error):
                fail(error)
                return false
            case .success(let length):
                let bodyless = StatusRules.hasNoBody(statusCode: statusCode, method: job.head.method)
                if !bodyless, let limit = bodyLimit, length > limit {
                    fail(.responseTooLarge(limit: limit))
                    return false
                }
                return true
            }
        }

        /// The most body bytes this transfer may keep (after decoding). A streamed 2xx body has no
        /// limit: its reader consumes it as it comes.
        private var bodyLimit: Int64? { headDelivered ? nil : request.limits.bodyLimit(forDownload: download != nil) }

        // MARK: Streams

        /// Resumes the caller with the head of a streamed 2xx response; the body follows in the sink.
        private func deliverHead() {
            lastActivity = .now
            guard job.headArrived(CurlReply(statusCode: statusCode, rawHeaders: rawHeaders, body: Data(), fileURL: nil, timings: timings())) else {
                return
            }
            let token = job.token
            job.stream?.onCancel { [engine] in
                token.markCancelled()
                engine.submit(.cancel(token))
            }
        }

        /// Pauses a stream until its reader made room; the loop then unpauses it.
        private func pauseForReader(_ sink: ResponseBodySink) -> Int {
            let token = job.token
            sink.whenDrained { [engine] in engine.submit(.unpause(token)) }
            return Int(CURL_WRITEFUNC_PAUSE)
        }

        /// The loop is about to resume a transfer that yielded; it starts a new share.
        func resumedAfterYield() {
            machine.resumedAfterYield()
        }

        /// libcurl handed over the bytes it held while the transfer yielded.
        func tookHeldBytes() {
            machine.tookHeldBytes()
        }

        /// The reader made room; the loop is about to unpause the transfer.
        func resumed() {
            machine.readerMadeRoom()
            lastActivity = .now
        }

        /// Whether the transfer is past its deadline at `now`: the head's, then for a stream the
        /// idle timeout (not while paused for a slow reader) and the optional total.
        func isOverdue(at now: ContinuousClock.Instant) -> Bool {
            guard headDelivered, let options = job.stream?.options else { return job.deadline <= now }
            if let total = options.totalTimeout, startInstant + total <= now { return true }
            return !isPaused && lastActivity + request.timeout <= now
        }

        /// Ends the job: the continuation, or for a stream whose head was delivered, its sink.
        func complete(_ result: Result<CurlReply, any Error>) {
            engine.transferEnded()
            job.end(result)
        }

        /// Body bytes; returns how many were consumed (fewer fails the transfer with a write error).
        func receiveBody(_ bytes: UnsafeRawBufferPointer) -> Int {
            engine.watchdog.beat()
            // A cancelled or overdue job stops here at once, even while libcurl is busy inflating a
            // huge body or reading a bulk one (the loop's own checks wait for the pass to end).
            if job.token.isCancelled {
                fail(.cancelled)
                return 0
            }
            if stopsAtDeadline() { return 0 }
            let sink = machine.headDelivered ? job.stream : nil
            switch machine.bodyArrived(bytes.count, readerHasRoom: sink?.hasRoom ?? false) {
            case .refuse:
                return 0
            case .yieldToOthers:
                // libcurl keeps these bytes and hands them over again when the loop resumes us.
                return Int(CURL_WRITEFUNC_PAUSE)
            case .pauseForReader:
                return sink.map(pauseForReader) ?? 0
            case .forwardToReader:
                lastActivity = .now
                sink?.yield(Data(bytes))
                return bytes.count
            case .keep:
                break
            }
            bodyBytes += Int64(bytes.count)
            if let limit = bodyLimit, bodyBytes > limit {
                fail(.responseTooLarge(limit: limit))
                return 0
            }
            if let download {
                do {
                    try download.write(bytes, status: statusCode, headerValue: headerValue)
                } catch {
                    fail(error)
                    return 0
                }
                return bytes.count
            }
            body.append(bytes.bindMemory(to: UInt8.self))
            return bytes.count
        }

        /// The status code in `HTTP/1.1 200 OK` or `HTTP/2 200`.
        private static func parseStatus(_ line: Slice<UnsafeRawBufferPointer>) -> Int {
            guard let space = line.firstIndex(of: 0x20) else { return 0 }
            var code = 0
            var index = space + 1
            while index < line.endIndex, line[index] >= 0x30, line[index] <= 0x39 {
                code = code * 10 + Int(line[index] - 0x30)
                index += 1
            }
            return code
        }
    }
#endif
