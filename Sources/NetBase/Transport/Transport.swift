import Foundation

/// Sends built requests. ``URLSessionTransport``, `CurlTransport` and ``StubTransport`` are
/// interchangeable: plugins and providers never know which one runs.
///
/// ## Error contract
/// Throw ``NetworkError`` (other errors are wrapped as ``NetworkError/transport(reason:underlying:)``).
/// Honour cancellation of the call by throwing ``NetworkError/cancelled`` promptly: wait inside
/// ``Request/withCancellationHandler(operation:onCancel:isolation:)`` (it fires on `Task`
/// cancellation and on ``Provider/cancelAll()``, which does not cancel tasks), and end every
/// request by ``Request/timeout`` with ``NetworkError/timedOut``. Return any status code: the
/// provider validates it. A request whose ``Request/tls`` policy cannot be enforced must fail with
/// ``NetworkError/tlsPolicyUnsupported(transport:host:)`` and never be sent.
public protocol Transport: Sendable {
    /// What this transport can do beyond plain requests.
    var capabilities: TransportCapabilities { get }

    /// Sends `request` and returns the response.
    /// - Parameters:
    ///   - request: The built, checked request; end it by its ``Request/timeout``.
    ///   - progress: Called with upload and download progress, from any thread.
    func send(_ request: Request, progress: ProgressHandler?) async throws -> Response

    /// Sends `request` and returns as soon as the response head arrives; a 2xx body then flows
    /// into `body` (``ResponseBodySink``), with backpressure. Other statuses return their whole
    /// body in the response (bounded by ``Request/limits``) and finish `body` empty.
    ///
    /// The default sends the request whole with ``send(_:progress:)`` and hands its body over at
    /// once, so every transport can stream (without backpressure or early heads).
    func stream(_ request: Request, into body: ResponseBodySink) async throws -> Response
}

public extension Transport {
    /// Sends whole, then delivers the body in one chunk.
    func stream(_ request: Request, into body: ResponseBodySink) async throws -> Response {
        var response: Response
        do {
            response = try await send(request, progress: nil)
        } catch {
            body.finish(throwing: NetworkError(error))
            throw error
        }
        guard StatusRules.isSuccess(response.statusCode) else {
            body.finish()
            return response
        }
        body.yield(response.data)
        body.finish()
        response.data = Data()
        return response
    }

    /// Sends `request` without progress reporting.
    func send(_ request: Request) async throws -> Response {
        try await send(request, progress: nil)
    }
}

/// Receives transfer progress; called from any thread.
public typealias ProgressHandler = @Sendable (TransferProgress) -> Void

/// Progress of one direction of a transfer.
public struct TransferProgress: Sendable, Hashable {
    /// Which direction.
    public enum Direction: Sendable, Hashable {
        case upload
        case download
    }

    /// Upload or download.
    public var direction: Direction
    /// Bytes transferred so far.
    public var completedBytes: Int64
    /// Total bytes expected, when known.
    public var totalBytes: Int64?

    /// Creates a progress value.
    public init(direction: Direction, completedBytes: Int64, totalBytes: Int64?) {
        self.direction = direction
        self.completedBytes = completedBytes
        self.totalBytes = totalBytes
    }

    /// `completedBytes / totalBytes` in 0...1, when the total is known.
    public var fractionCompleted: Double? {
        guard let totalBytes, totalBytes > 0 else { return nil }
        return min(1, Double(completedBytes) / Double(totalBytes))
    }
}

/// Optional abilities of a ``Transport``.
public struct TransportCapabilities: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Enforces ``TLSPolicy`` pins, trusted certificates and client identities. Without it, a
    /// request with a policy fails with ``NetworkError/tlsPolicyUnsupported(transport:host:)``
    /// before anything is sent.
    public static let tlsPolicy = TransportCapabilities(rawValue: 1 << 0)
    /// Speaks HTTP/2. Information for callers: NetKit behaves the same either way.
    public static let http2 = TransportCapabilities(rawValue: 1 << 1)
    /// Continues partial downloads with `Range`. Without it, a resumable download is fetched
    /// whole and replaces the partial file (no error).
    public static let resumableDownload = TransportCapabilities(rawValue: 1 << 2)
    /// Reports upload and download progress while bytes move. Without it, the provider reports
    /// one final event per direction (completed == total) when the response has arrived.
    public static let progress = TransportCapabilities(rawValue: 1 << 3)
    /// Sends through the proxies of ``Request/proxy``. Without it, a request that would go
    /// through a proxy fails with ``NetworkError/proxyFailed(proxy:reason:underlying:)`` before anything
    /// is sent (never directly, around the proxy).
    public static let proxy = TransportCapabilities(rawValue: 1 << 4)
    /// Applies ``Request/cookieJar`` itself on every redirect hop (the built-in transports do,
    /// through the same code). Without it, the provider applies the jar around the whole
    /// exchange: its cookies go with the request, and the final response's `Set-Cookie` headers
    /// are stored.
    public static let cookieJar = TransportCapabilities(rawValue: 1 << 5)
}
