import Foundation

/// Sends built requests. ``URLSessionTransport``, `CurlTransport` and ``StubTransport`` are
/// interchangeable: plugins and providers never know which one runs.
///
/// ## Error contract
/// Throw ``NetworkError`` (other errors are wrapped as ``NetworkError/transport(reason:underlying:)``).
/// Honour cancellation of the call by throwing ``NetworkError/cancelled`` promptly: the transport
/// runs in the call's task, which the caller's cancellation and ``Provider/cancelAll()`` both
/// cancel, so wait with `withTaskCancellationHandler`, `Task.sleep` or an `AsyncStream` and check
/// `Task.isCancelled` before starting work. End every request by ``Request/timeout`` with ``NetworkError/timedOut``. Return any status code: the
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
}

/// A transport that streams a 2xx body as it arrives (the library's own transports); any other
/// ``Transport`` streams by sending whole (``Transport/streamResponse(_:into:)``).
package protocol StreamingTransport: Transport {
    /// Sends `request` and returns as soon as the response head arrives; a 2xx body then flows
    /// into `body` (``ResponseBodySink``), paused while its reader has no room where the transport
    /// can pause (`URLSessionTransport` cannot: it ends a stream whose reader falls far behind). Other statuses return their whole
    /// body in the response (bounded by ``Request/limits``) and finish `body` empty.
    func stream(_ request: Request, into body: ResponseBodySink) async throws -> Response
}

package extension Transport {
    /// Streams through ``StreamingTransport/stream(_:into:)`` when this transport can; otherwise
    /// sends whole with ``send(_:progress:)`` and hands the body over in one chunk, so every
    /// transport can stream (without backpressure or early heads).
    func streamResponse(_ request: Request, into body: ResponseBodySink) async throws -> Response {
        if let streaming = self as? any StreamingTransport {
            return try await streaming.stream(request, into: body)
        }
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
}

public extension Transport {
    /// Sends `request` without progress reporting.
    func send(_ request: Request) async throws -> Response {
        try await send(request, progress: nil)
    }
}

/// Receives transfer progress; called from any thread.
public typealias ProgressHandler = @Sendable (TransferProgress) -> Void
