import NetToolbox
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

/// A transport that streams a 2xx body as it arrives (the library's own transports and the
/// wrappers over them); any other ``Transport`` streams by sending whole
/// (``Transport/streamResponse(_:into:)``). Only NetKit's own types can conform, so a conforming
/// transport also enforces ``Request/limits`` and writes ``Request/download`` itself, unless
/// ``enforcesLimitsAndDownloads`` says otherwise (a wrapper over a custom transport).
package protocol StreamingTransport: Transport {
    /// Sends `request` and returns as soon as the response head arrives; a 2xx body then flows
    /// into `body` (``ResponseBodySink``), paused while its reader has no room where the transport
    /// can pause (`URLSessionTransport` cannot: it ends a stream whose reader falls far behind). Other statuses return their whole
    /// body in the response (bounded by ``Request/limits``) and finish `body` empty.
    func stream(_ request: Request, into body: ResponseBodySink) async throws -> Response

    /// Whether this transport fails a body past ``Request/limits`` and writes a download to
    /// ``Request/download`` itself; when not, the pipeline does (``CustomTransportResponse``).
    var enforcesLimitsAndDownloads: Bool { get }
}

package extension StreamingTransport {
    /// NetKit's own transports enforce limits and write downloads themselves.
    var enforcesLimitsAndDownloads: Bool { true }
}

package extension Transport {
    /// Streams through ``StreamingTransport/stream(_:into:)`` when this transport can, with the
    /// stream's idle timeout as the request's timeout; otherwise sends whole with
    /// ``send(_:progress:)`` under the request's own timeout and limits, and hands the body over
    /// in one chunk, so every transport can stream (without backpressure or early heads).
    func streamResponse(_ request: Request, into body: ResponseBodySink) async throws -> Response {
        if let streaming = self as? any StreamingTransport {
            return try await streaming.stream(request.timedForStreaming, into: body)
        }
        return try await WholeStream.deliver(request, into: body, enforcingLimits: true) { request in
            try await send(request, progress: nil)
        }
    }
}

/// A streamed call answered whole: by a transport that cannot stream, or by a stub.
package enum WholeStream {
    /// Runs `send` for `request` under its whole-call timeout (not the stream's idle timeout),
    /// then hands a 2xx body to `body` in one chunk; other statuses keep their body in the
    /// response and finish `body` empty.
    /// - Parameter enforcingLimits: Whether to fail a body past ``Request/limits`` (a custom
    ///   transport's answer, see ``CustomTransportResponse``).
    package static func deliver(
        _ request: Request, into body: ResponseBodySink, enforcingLimits: Bool, _ send: (Request) async throws -> Response
    ) async throws -> Response {
        var whole = request
        whole.timeout = request.wholeTimeout
        var response: Response
        do {
            response = try await send(whole)
            if enforcingLimits { try CustomTransportResponse.checkLimits(response, for: whole) }
        } catch {
            body.finish(throwing: NetworkError(error))
            throw error
        }
        response.request = request
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

extension Request {
    /// The idle timeout of a streamed call (``StreamOptions/idleTimeout``): what a transport that
    /// streams uses as the request's timeout. `nil`: the request's own timeout.
    package var streamIdleTimeout: Duration? {
        get { context[StreamTimeoutsKey.self].idle }
        set { context[StreamTimeoutsKey.self].idle = newValue }
    }

    /// The request's timeout for a whole exchange, before ``timedForStreaming`` replaced it.
    package var wholeTimeout: Duration { context[StreamTimeoutsKey.self].whole ?? timeout }

    /// This request as a streaming transport sends it: its timeout is the idle timeout, and the
    /// whole-exchange timeout is kept for a wrapper's base that answers whole.
    package var timedForStreaming: Request {
        guard let idle = streamIdleTimeout, context[StreamTimeoutsKey.self].whole == nil else { return self }
        var request = self
        request.context[StreamTimeoutsKey.self].whole = timeout
        request.timeout = idle
        return request
    }
}

/// The timeouts of a streamed call's request (``Request/streamIdleTimeout``).
private enum StreamTimeoutsKey: RequestContextKey {
    struct Value: Sendable {
        var idle: Duration?
        var whole: Duration?
    }
    static let defaultValue = Value()
}

public extension Transport {
    /// Sends `request` without progress reporting.
    func send(_ request: Request) async throws -> Response {
        try await send(request, progress: nil)
    }
}

/// Receives transfer progress; called from any thread.
public typealias ProgressHandler = @Sendable (TransferProgress) -> Void
