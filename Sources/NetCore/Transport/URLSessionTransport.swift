#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Synchronization

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
public final class URLSessionTransport: Transport {
    public var capabilities: TransportCapabilities { [.progress] }

    private let session: URLSession
    private let delegate: SessionDelegate

    /// The session configuration a transport uses unless given one: `.default` without a cookie
    /// store.
    ///
    /// Cookies are ambient state that plugins never see: a cookie stored from one response
    /// would ride along on later requests without appearing in ``Request/headers``, so logs,
    /// captures and redaction could not account for it. NetKit's transports therefore send only
    /// the headers a request carries (a `Cookie` header included) and keep nothing from
    /// responses; `CurlTransport` behaves the same way. Without a cookie store, URLSession on
    /// Linux also skips parsing every response's headers for cookies (about 15% of its CPU time
    /// per small request). Pass a configuration with `httpCookieStorage` and
    /// `httpShouldSetCookies` set to use a cookie jar.
    public static var defaultConfiguration: URLSessionConfiguration {
        let configuration = URLSessionConfiguration.default
        configuration.httpCookieStorage = nil
        configuration.httpCookieAcceptPolicy = .never
        configuration.httpShouldSetCookies = false
        return configuration
    }

    /// Creates a transport.
    /// - Parameters:
    ///   - configuration: The session configuration; its `urlCache` is removed. Default:
    ///     ``defaultConfiguration`` (no cookie store).
    ///   - redirectPolicy: What to do with redirects. Default: follow, but never from https to http,
    ///     and drop `Authorization` when the host changes.
    public init(configuration: URLSessionConfiguration = URLSessionTransport.defaultConfiguration, redirectPolicy: RedirectPolicy = .secure) {
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        delegate = SessionDelegate(redirectPolicy: redirectPolicy)
        // URLSession calls completion handlers through its delegate queue; the default one is
        // serial, so concurrent requests queued behind each other (about 20% of throughput at 8
        // concurrent on Linux). Exchange and SessionDelegate are safe to call concurrently.
        let queue = OperationQueue()
        queue.name = "NetKit.URLSessionTransport"
        queue.maxConcurrentOperationCount = OperationQueue.defaultMaxConcurrentOperationCount
        session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: queue)
    }

    deinit {
        session.finishTasksAndInvalidate()
    }

    public func send(_ request: Request, progress: ProgressHandler?) async throws -> Response {
        if request.tls != nil {
            throw NetworkError.tlsPolicyUnsupported(transport: "URLSessionTransport", host: request.host)
        }
        if Task.isCancelled { throw NetworkError.cancelled }
        let prepared = try PreparedUpload(request)
        defer { prepared.cleanUp() }
        let exchange = Exchange(request: request, progress: progress)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Response, any Error>) in
                exchange.continuation = continuation
                let task = makeTask(prepared, exchange: exchange)
                delegate.register(task, exchange: exchange)
                exchange.start(task)
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
        if let file = prepared.uploadFile {
            return session.uploadTask(with: urlRequest, fromFile: file) { [delegate] data, response, error in
                delegate.unregister(exchange)
                exchange.finish(data: data, response: response, error: error)
            }
        }
        return session.dataTask(with: urlRequest) { [delegate] data, response, error in
            delegate.unregister(exchange)
            exchange.finish(data: data, response: response, error: error)
        }
    }
}

/// How ``URLSessionTransport`` treats redirects.
public struct RedirectPolicy: Sendable, Hashable {
    /// Whether redirects are followed at all.
    public var follows: Bool
    /// Whether a redirect from https to http is followed (off by default: it would leak data).
    public var allowsDowngrade: Bool
    /// Whether `Authorization` is removed when a redirect changes host (on by default).
    public var dropsAuthorizationAcrossHosts: Bool

    /// Creates a policy.
    public init(follows: Bool = true, allowsDowngrade: Bool = false, dropsAuthorizationAcrossHosts: Bool = true) {
        self.follows = follows
        self.allowsDowngrade = allowsDowngrade
        self.dropsAuthorizationAcrossHosts = dropsAuthorizationAcrossHosts
    }

    /// Follow redirects, refuse https→http, drop credentials across hosts.
    public static let secure = RedirectPolicy()
    /// Never follow: the 3xx response is returned as it is.
    public static let none = RedirectPolicy(follows: false)

    /// The request to follow, or `nil` with the reason to refuse it (`reason` nil: just stop).
    func decide(from original: URLRequest?, to proposed: URLRequest) -> (URLRequest?, refusal: String?) {
        guard follows else { return (nil, nil) }
        let fromScheme = original?.url?.scheme?.lowercased()
        let toScheme = proposed.url?.scheme?.lowercased()
        if fromScheme == "https", toScheme == "http", !allowsDowngrade {
            return (nil, "redirect from https to http (\(proposed.url?.absoluteString ?? "")) is not allowed")
        }
        var next = proposed
        if dropsAuthorizationAcrossHosts, original?.url?.host != proposed.url?.host {
            next.setValue(nil, forHTTPHeaderField: "Authorization")
        }
        return (next, nil)
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
        let seconds = Double(request.timeout.components.seconds) + Double(request.timeout.components.attoseconds) / 1e18
        urlRequest.timeoutInterval = max(1, (seconds + 1).rounded(.up))
        for field in request.headers { urlRequest.setValue(field.value, forHTTPHeaderField: field.name) }
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
                    throw .unreadableFile(target: targetDescription(request.target), url: file, reason: "\(error)")
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
