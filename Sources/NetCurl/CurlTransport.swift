#if canImport(CCurl)
    import NetTransportSupport
    import NetBase
    import Foundation

    /// The fast transport for Linux: libcurl's multi interface driven by event-loop threads, by
    /// default one per processor core (at most 8).
    ///
    /// Each loop's libcurl multi handle gives connection reuse, HTTP/2 multiplexing over TLS and
    /// its share of the connection limits; a request goes to the loop with the fewest transfers,
    /// preferring the one that last talked to the same origin (so its connection is reused). Request bodies of every kind stream from memory or disk
    /// with `Content-Length`; downloads stream to disk and land at their destination only when
    /// complete; resumable downloads continue from a partial file with `Range`.
    ///
    /// It enforces ``TLSPolicy`` per request: SPKI SHA-256 pins (checked inside the TLS handshake,
    /// before a client certificate is sent, and again by `CURLOPT_PINNEDPUBLICKEY`), extra
    /// trusted certificates and host-name verification. libcurl only reuses a connection (or a TLS
    /// session) whose TLS settings, pins and trusted certificates included, equal the request's, so
    /// a policy never leaks to another request. When a policy lists trusted certificates, those
    /// certificates are the only trust anchors for that request: the system CA bundle is not
    /// consulted, so a private-CA or self-signed host cannot also be vouched for by a public CA.
    ///
    /// ```swift
    /// let provider = Provider<API>(transport: CurlTransport())
    /// let tuned = CurlTransport(configuration: .init(maxConnectionsPerHost: 4, connectTimeout: .seconds(5)))
    /// ```
    ///
    /// Every request ends: by its response, its error, cancellation of its task (by its caller or
    /// `Provider.cancelAll()`; the transfer is removed from libcurl at once and
    /// ``NetworkError/cancelled`` thrown) or ``Request/timeout``
    /// (``NetworkError/timedOut``, sub-second values honoured).
    public final class CurlTransport: Transport, ExecutorOwningTransport, StreamingTransport {
        /// Knobs for a ``CurlTransport``. The defaults suit most clients.
        public struct Configuration: Sendable, Hashable {
            /// The most connections open to one host at a time (0: no limit). Requests beyond it
            /// wait for a free connection; HTTP/2 requests share one connection. Default 16.
            public var maxConnectionsPerHost: Int
            /// The most connections open at a time across all hosts (0: no limit). Default 128.
            public var maxTotalConnections: Int
            /// How long establishing a connection (DNS, TCP, TLS) may take. Default 10 s.
            public var connectTimeout: Duration
            /// Which redirects are followed. Default ``RedirectPolicy/secure``: follow, refuse
            /// https → http, never send credentials to another origin.
            public var redirectPolicy: RedirectPolicy
            /// How many redirects one request may follow before failing with
            /// ``NetworkError/redirectRefused(reason:)``. Default 10.
            public var maxRedirects: Int
            /// Whether libcurl prints its verbose trace to stderr. Off by default: the trace shows
            /// headers, credentials included.
            public var verbose: Bool
            /// How many event loops (threads, each with its own connections) the transport runs;
            /// 0, the default, means one per active processor core (as SwiftNIO), at most 8; a loop moving
            /// bulk bodies gives way to the callers' threads on every pass. Each loop gets its share of
            /// ``maxConnectionsPerHost`` and ``maxTotalConnections``, rounded up, so with limits
            /// smaller than the number of loops the transport may open up to one connection per
            /// loop: set 1 here for a strict limit of one.
            public var eventLoops: Int
            /// The proxies requests go through, or `nil` (the default) for none. Environment
            /// variables such as `HTTPS_PROXY` are ignored unless you pass
            /// ``ProxyConfiguration/fromEnvironment(_:)`` here. A request's own
            /// ``Request/proxy`` replaces this value for that request.
            public var proxy: ProxyConfiguration?
            /// How long a loop that ran out of work keeps polling its sockets and its queue
            /// without sleeping before it blocks; zero, the default, blocks at once. Each sleep and
            /// wake-up of a thread costs several microseconds of CPU (on virtual machines tens),
            /// and a request crosses to the loop and back: a window of 50-100 µs lets a busy client
            /// skip those for up to half its latency per request, at the price of CPU burnt
            /// while it waits (see Benchmarks/INVESTIGATIONS.md). Values are clamped to 0...1 ms, so that
            /// deadlines and libcurl's own timers never wait on a window.
            public var busyPoll: Duration

            /// ``busyPoll`` within 0...1 ms.
            var effectiveBusyPoll: Duration { min(max(busyPoll, .zero), .milliseconds(1)) }

            /// Creates a configuration.
            public init(
                maxConnectionsPerHost: Int = 16, maxTotalConnections: Int = 128, connectTimeout: Duration = .seconds(10),
                redirectPolicy: RedirectPolicy = .secure, maxRedirects: Int = 10, verbose: Bool = false,
                proxy: ProxyConfiguration? = nil, eventLoops: Int = 0, busyPoll: Duration = .zero
            ) {
                self.eventLoops = eventLoops
                self.busyPoll = busyPoll
                self.maxConnectionsPerHost = maxConnectionsPerHost
                self.maxTotalConnections = maxTotalConnections
                self.connectTimeout = connectTimeout
                self.redirectPolicy = redirectPolicy
                self.maxRedirects = maxRedirects
                self.verbose = verbose
                self.proxy = proxy
            }
        }

        /// The configuration this transport was created with.
        package let configuration: Configuration

        /// TLS policies, HTTP/2, resumable downloads and progress.
        public var capabilities: TransportCapabilities { [.tlsPolicy, .http2, .resumableDownload, .progress, .proxy, .cookieJar] }

        private let engines: CurlEngineGroup

        /// An executor that runs Swift tasks on the thread of this transport's first event loop.
        ///
        /// A task that prefers it skips the two thread hand-offs of every request (to the loop
        /// thread and back), which matters most for sequential requests:
        ///
        /// ```swift
        /// let transport = CurlTransport()
        /// let provider = Provider<API>(transport: transport)
        /// let users = try await withTaskExecutorPreference(transport.executor) {
        ///     try await provider.request(.users, as: [User].self)
        /// }
        /// ```
        ///
        /// Requests made from such a task run on that loop too (other requests go to the loop with
        /// the fewest transfers). The loop thread drives its transfers, so keep work in such a task
        /// short: long computations or blocking calls delay every request on that loop, and many
        /// callers on the executor leave the transport's other loops idle.
        /// Actor-isolated code still runs on its actor. After the transport is released, tasks that
        /// still prefer this executor run on the global concurrent executor.
        public var executor: any TaskExecutor { engines.executorEngine }

        /// Whether the caller runs on the executor's loop thread (for tests).
        var isOnLoopThread: Bool { engines.executorEngine.isLoopThread }

        /// The number of event loops (for tests).
        var loopCount: Int { engines.engines.count }

        /// Creates a transport with its own connection pools and event-loop threads.
        /// - Parameter configuration: Connection limits, timeouts, redirects, loops. Default: ``Configuration/init(maxConnectionsPerHost:maxTotalConnections:connectTimeout:redirectPolicy:maxRedirects:verbose:proxy:eventLoops:busyPoll:)``.
        public init(configuration: Configuration = Configuration()) {
            self.configuration = configuration
            engines = CurlEngineGroup(configuration: configuration)
        }

        deinit {
            // In-flight requests keep `self` alive, so nothing is running here.
            engines.shutdown()
        }

        /// Sends `request` through libcurl.
        ///
        /// - Parameters:
        ///   - request: The built request; its ``Request/timeout`` bounds the whole exchange.
        ///   - progress: Called from the transport's loop thread with upload and download
        ///     progress; keep it short.
        /// - Returns: The response, whatever its status. Downloads return an empty `data` and the
        ///   destination in ``Response/fileURL`` for 2xx answers; other answers keep their body in
        ///   `data` (up to 1 MiB) and never touch the destination.
        /// - Throws: ``NetworkError``: `.cancelled`, `.timedOut`, `.connectionFailed`, `.dnsFailure`,
        ///   `.tlsFailure`, `.pinningFailed`, `.connectionLost`, `.truncatedResponse`,
        ///   `.invalidResponse`, `.redirectRefused`, `.unreadableFile`, `.fileSystem`, `.transport`.
        public func send(_ request: Request, progress: ProgressHandler?) async throws -> Response {
            try await RedirectFollower.send(request, policy: configuration.redirectPolicy, maxRedirects: configuration.maxRedirects) { hop in
                try await sendHop(hop, progress: progress)
            }
        }

        /// Streams the response: returns at the head of a 2xx and feeds its body into `body`, pausing
        /// the transfer while the reader has no room (see ``Transport/stream(_:into:)``).
        package func stream(_ request: Request, into body: ResponseBodySink) async throws -> Response {
            try await RedirectFollower.stream(request, into: body, policy: configuration.redirectPolicy, maxRedirects: configuration.maxRedirects) { hop in
                try await sendHop(hop, progress: nil, stream: body)
            }
        }

        /// Sends one request without following redirects (libcurl never follows them itself, so each
        /// hop gets its own origin's TLS policy and credentials; see ``RedirectPolicy``).
        private func sendHop(_ request: Request, progress: ProgressHandler?, stream: ResponseBodySink? = nil) async throws -> Response {
            if Task.isCancelled { throw NetworkError.cancelled }
            let token = CurlJobToken()
            let head = CurlRequestHead(request, proxies: configuration.proxy)
            let engine = engines.engine(for: request, head: head)
            let reply = try await withTaskCancellationHandler {
                try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<CurlReply, any Error>) in
                    Self.start(request, head: head, on: engine, progress: progress, stream: stream, token: token, continuation: continuation)
                }
            } onCancel: {
                token.markCancelled()
                engine.submit(.cancel(token))
            }
            return reply.response(for: request)
        }

        // `start` (and `CurlReply.response(for:)`) are not inlined into `sendHop`: their
        // temporaries (the job, the reply's timings and metrics) would otherwise enlarge its async
        // frame, a task allocation on every request (see Benchmarks/INVESTIGATIONS.md, issue 36).

        /// Hands `request`'s transfer to `engine`'s loop; `continuation` gets its reply.
        @inline(never)
        private static func start(
            _ request: Request, head: CurlRequestHead, on engine: CurlEngine, progress: ProgressHandler?, stream: ResponseBodySink?,
            token: CurlJobToken, continuation: UnsafeContinuation<CurlReply, any Error>
        ) {
            engine.submit(
                .start(
                    CurlJob(
                        request: request, head: head, progress: progress, continuation: continuation, token: token,
                        deadline: .now + request.timeout, stream: stream)))
        }
    }
#endif
