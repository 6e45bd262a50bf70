#if canImport(FoundationNetworking)
    import NetTransportSupport
    import FoundationNetworking
#endif
import Foundation
import NetBase

/// The portable default transport, built on `URLSession`.
///
/// It works around `URLSession`'s Linux behaviour (Swift 6.3): it enforces ``Request/timeout``
/// with its own deadline (URLSession's are idle timers rounded to whole seconds), ends a
/// `401` with `WWW-Authenticate: Basic` instead of hanging, disables `URLCache` (caching is the
/// cache plugin's job), streams file and multipart uploads without `Content-Length` (Linux sends
/// them chunked), and maps cancellation and TLS failures to the right ``NetworkError``.
///
/// It cannot enforce ``TLSPolicy`` (pins, extra trusted certificates): such requests fail closed
/// with ``NetworkError/tlsPolicyUnsupported(transport:host:)``. Use `CurlTransport` for them.
public final class URLSessionTransport: Transport, StreamingTransport {
    public var capabilities: TransportCapabilities { [.progress, .cookieJar] }

    /// Which redirects are followed (NetKit follows them itself, hop by hop; see ``RedirectPolicy``).
    package let redirectPolicy: RedirectPolicy
    /// How many redirects one request may follow.
    package let maxRedirects: Int

    let session: URLSession
    /// The configuration's own cookie store, when it named one.
    private let sessionCookies: SessionCookieStorage?
    private let delegate: SessionDelegate
    /// Suspends, resumes and cancels tasks off the callers' threads (see `Exchange`).
    private let control = DispatchQueue(label: "NetKit.URLSessionTransport.control")

    /// The session configuration a transport uses unless given one: `.default` without a cookie
    /// store.
    ///
    /// NetKit keeps cookies in a ``CookieJar`` (``ProviderConfiguration/cookieJar``), with the
    /// same rules on every transport and every redirect hop. Without a cookie store, URLSession
    /// on Linux also skips parsing every response's headers for cookies (about 15% of its CPU
    /// time per small request).
    public static var defaultConfiguration: URLSessionConfiguration {
        let configuration = URLSessionConfiguration.default
        configuration.httpCookieStorage = nil
        configuration.httpCookieAcceptPolicy = .never
        configuration.httpShouldSetCookies = false
        return configuration
    }

    /// Creates a transport.
    /// - Parameters:
    ///   - configuration: The session configuration, copied (the object you pass is never
    ///     changed). The copy's `urlCache` is removed (caching is `CachePlugin`'s job). A cookie
    ///     store it names (`httpCookieStorage` with `httpShouldSetCookies`, as in
    ///     `URLSessionConfiguration.default`) is honoured on every redirect hop NetKit follows,
    ///     by Foundation's cookie rules and the configuration's accept policy, for requests that
    ///     carry no ``CookieJar`` (a provider's ``ProviderConfiguration/cookieJar`` wins).
    ///     Default: ``defaultConfiguration``, which has no store.
    ///   - redirectPolicy: What to do with redirects. Default: follow, but never from https to http,
    ///     and drop credentials when the origin changes.
    ///   - maxRedirects: How many redirects one request may follow before failing with
    ///     ``NetworkError/redirectRefused(reason:)``. Default 10.
    public init(
        configuration: URLSessionConfiguration = URLSessionTransport.defaultConfiguration, redirectPolicy: RedirectPolicy = .secure,
        maxRedirects: Int = 10
    ) {
        self.redirectPolicy = redirectPolicy
        self.maxRedirects = maxRedirects
        sessionCookies = SessionCookieStorage(configuration)
        // A copy: the caller's configuration object (a class) must not change under it.
        let configuration = configuration.copy() as? URLSessionConfiguration ?? Self.defaultConfiguration
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        // The session never handles cookies itself: the store above (or the request's
        // CookieJar) is applied hop by hop, since NetKit follows the redirects.
        configuration.httpCookieStorage = nil
        configuration.httpCookieAcceptPolicy = .never
        configuration.httpShouldSetCookies = false
        delegate = SessionDelegate()
        // Serial: body chunks arrive as delegate calls, and a concurrent queue could run two
        // chunks of one task at once and append them out of order. It also keeps cancellation
        // and completion callbacks from racing inside FoundationNetworking.
        let queue = OperationQueue()
        queue.name = "NetKit.URLSessionTransport"
        queue.maxConcurrentOperationCount = 1
        session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: queue)
    }

    deinit {
        session.finishTasksAndInvalidate()
    }

    public func send(_ request: Request, progress: ProgressHandler?) async throws -> Response {
        try await RedirectFollower.send(request, policy: redirectPolicy, maxRedirects: maxRedirects) { hop in
            guard let sessionCookies else { return try await sendHop(hop, progress: progress) }
            return try await sessionCookies.exchange(hop) { try await sendHop($0, progress: progress) }
        }
    }

    /// Streams the response: returns at the head of a 2xx and feeds its body into `body`.
    /// The data task is never paused (a resumed task starts over in FoundationNetworking): a
    /// reader more than max(``StreamOptions/bufferBytes``, 64 MiB) behind ends the stream.
    package func stream(_ request: Request, into body: ResponseBodySink) async throws -> Response {
        try await RedirectFollower.stream(request, into: body, policy: redirectPolicy, maxRedirects: maxRedirects) { hop in
            guard let sessionCookies else { return try await sendHop(hop, progress: nil, stream: body) }
            return try await sessionCookies.exchange(hop) { try await sendHop($0, progress: nil, stream: body) }
        }
    }

    /// How many of this transport's URLSession tasks have not completed yet. A stopped transfer
    /// stays counted until FoundationNetworking has really ended it, which can be a while after
    /// the caller got its error (it keeps reading until its work queue reaches the cancel): tests
    /// wait for zero before the next transfer, so that one cannot starve another.
    package func unfinishedTaskCount() async -> Int {
        await withCheckedContinuation { continuation in
            session.getAllTasks { tasks in
                continuation.resume(returning: tasks.filter { $0.state != .completed }.count)
            }
        }
    }

    /// Sends one request without following redirects.
    private func sendHop(_ request: Request, progress: ProgressHandler?, stream: ResponseBodySink? = nil) async throws -> Response {
        // Every hop, also when called without a provider: no TLS policy, no proxy (FoundationNetworking
        // ignores connectionProxyDictionary on Linux), so such requests fail closed.
        if let refusal = CapabilityCheck.refusal(of: request, by: self) { throw refusal }
        #if canImport(FoundationNetworking)
            // Its libcurl would follow *_PROXY variables by itself, whatever `request.proxy` says.
            if let variable = EnvironmentProxy.variable(for: request.url) {
                throw NetworkError.proxyFailed(
                    proxy: variable,
                    reason:
                        "the environment variable \(variable) would make URLSession on Linux send this request through a proxy NetKit did not choose; unset it (or list the host in NO_PROXY), or use CurlTransport, which ignores it unless asked"
                )
            }
        #endif
        if Task.isCancelled { throw NetworkError.cancelled }
        let prepared = try PreparedUpload(request)
        defer { prepared.cleanUp() }
        let exchange = Exchange(
            request: request, progress: progress, control: control,
            stream: request.download == nil ? stream : nil)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Response, any Error>) in
                // Watched from now: making a task waits on FoundationNetworking's work queue, which
                // a hostile transfer can hold for as long as it likes, so it happens on the control
                // queue while the deadline and cancellation already answer the caller.
                exchange.wait(continuation)
                control.async { [self] in
                    let task = makeTask(prepared, exchange: exchange)
                    delegate.register(task, exchange: exchange)
                    exchange.start(task)
                }
            }
        } onCancel: {
            exchange.stop(because: .cancelled)
        }
    }

    private func makeTask(_ prepared: PreparedUpload, exchange: Exchange) -> URLSessionTask {
        let urlRequest = prepared.urlRequest
        if exchange.request.download != nil {
            return session.downloadTask(with: urlRequest) { [delegate] location, response, error in
                delegate.unregister(exchange)
                exchange.finishDownload(location: location, response: response, error: error)
            }
        }
        // Bodies in memory arrive through the delegate (SessionDelegate), chunk by chunk, so the
        // size limit and progress apply while they stream.
        if let file = prepared.uploadFile {
            return session.uploadTask(with: urlRequest, fromFile: file)
        }
        return session.dataTask(with: urlRequest)
    }
}

/// The `URLRequest` for a ``Request``, and the temporary file a streamed multipart body needs.
private struct PreparedUpload {
    var urlRequest: URLRequest
    var uploadFile: URL?
    var temporaryFile: URL?

    init(_ request: Request) throws(NetworkError) {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method.rawValue
        // URLSession's own timer is an idle timer in whole seconds; it only backs up our deadline.
        urlRequest.timeoutInterval = max(1, (request.timeout.seconds + 1).rounded(.up))
        // Proxy-Authorization belongs to a proxy, and this transport sends through none: it never
        // reaches an origin.
        for field in request.headers where !HTTPHeaders.sameName(field.name, "Proxy-Authorization") {
            urlRequest.setValue(field.value, forHTTPHeaderField: field.name)
        }
        switch request.body {
        case .none:
            break
        case .data(let data):
            urlRequest.httpBody = data
        case .file(let url):
            uploadFile = url
        case .multipart(let body):
            if let data = body.inMemoryData {
                urlRequest.httpBody = data
            } else {
                // A multipart body with file parts is spooled to a temporary file in chunks and
                // uploaded from it, so memory stays flat for any part size.
                let file = FileManager.default.temporaryDirectory
                    .appendingPathComponent("netkit-multipart-\(UUID().uuidString)")
                do {
                    try BodyStreamReader(request.body).write(to: file)
                } catch {
                    try? FileManager.default.removeItem(at: file)
                    throw .unreadableFile(target: targetDescription(request.target), url: file, reason: "\(error)", underlying: error)
                }
                uploadFile = file
                temporaryFile = file
            }
        }
        if uploadFile != nil {
            // URLSession on Linux streams file bodies chunked; a Content-Length as well makes servers answer 400.
            urlRequest.setValue(nil, forHTTPHeaderField: "Content-Length")
        }
        self.urlRequest = urlRequest
    }

    func cleanUp() {
        if let temporaryFile { try? FileManager.default.removeItem(at: temporaryFile) }
    }
}
