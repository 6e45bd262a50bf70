import NetTransportSupport
import NetBase
import Foundation

/// Sends a ``TargetType``'s requests through a ``Transport`` and an ordered list of ``Plugin``s.
///
/// ```swift
/// let provider = Provider<HTTPBin>(plugins: [LoggerPlugin()],
///                                  configuration: ProviderConfiguration(baseURL: url))
/// let echo = try await provider.request(.get(["q": "x"]), as: Echo.self, atKeyPath: "args")
/// ```
///
/// Every method runs the same pipeline (see ``Plugin``). Errors are always ``NetworkError``.
/// A request keeps running when the caller drops the provider; cancel it through its `Task`,
/// the returned ``Cancellable``, or ``cancelAll()``. Every call runs in a task of its own (for
/// ``request(_:)`` one started on the caller's thread, see `CallTasks`), which is what
/// ``cancelAll()`` cancels: the caller's task is never cancelled by it.
public final class Provider<Target: TargetType>: Sendable {
    /// The transport that sends requests.
    package let transport: any Transport
    /// The plugins, in hook order.
    package let plugins: [any Plugin]
    /// Shared settings.
    public let configuration: ProviderConfiguration

    let pipeline: Pipeline
    /// The calls in flight, each a task ``cancelAll()`` cancels.
    let calls: CallTasks

    /// Creates a provider.
    /// - Parameters:
    ///   - transport: Sends the requests. Default: ``DefaultTransport/shared`` (`CurlTransport` on
    ///     Linux, ``URLSessionTransport`` on Apple platforms), one instance for the whole process.
    ///   - plugins: Run in this order for every request.
    ///   - configuration: Base URL, headers, query, timeout, attempts and coders for every request.
    public init(
        transport: any Transport = DefaultTransport.shared, plugins: [any Plugin] = [],
        configuration: ProviderConfiguration = ProviderConfiguration()
    ) {
        self.transport = transport
        self.plugins = plugins
        self.configuration = configuration
        self.calls = CallTasks(transportExecutor: (transport as? any ExecutorOwningTransport)?.executor)
        self.pipeline = Pipeline(
            transport: transport, plugins: PluginManager(plugins), configuration: configuration,
            observers: plugins.compactMap { $0 as? any NetworkEventObserver })
    }

    /// Sends `target` and returns the final response (after every plugin's `process`).
    /// - Throws: ``NetworkError``.
    public func request(_ target: Target) async throws(NetworkError) -> Response {
        try await run(target, events: PipelineEvents()).get()
    }

    /// Sends `target` and decodes the body (or the value at the dot-separated `keyPath`) with the
    /// configuration's decoder.
    /// - Throws: ``NetworkError``, ``NetworkError/decodingFailed(type:keyPath:reason:bodyExcerpt:response:underlying:)`` when decoding fails.
    public func request<T: Decodable>(_ target: Target, as type: T.Type = T.self, atKeyPath keyPath: String? = nil) async throws(NetworkError) -> T {
        let response = try await request(target)
        return try response.decode(T.self, atKeyPath: keyPath, using: configuration.jsonDecoder)
    }

    /// Sends `target` and streams its responses: provisional ones a plugin offers first (a cached
    /// copy under cache-then-network), then the final one. The stream finishes after the final
    /// response or throws its ``NetworkError``. Cancelling the iterating task cancels the request.
    public func responses(_ target: Target) -> AsyncThrowingStream<Response, any Error> {
        let (stream, continuation) = AsyncThrowingStream<Response, any Error>.makeStream()
        let events = PipelineEvents(onProvisional: { continuation.yield($0) })
        let task = calls.start { [pipeline] in
            switch await pipeline.run(target, events: events) {
            case .success(let response):
                continuation.yield(response)
                continuation.finish()
            case .failure(let error):
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    /// Sends `target` and streams the response body as it arrives (see ``ResponseStream``).
    /// - Parameters:
    ///   - target: The endpoint to call.
    ///   - options: Idle and total timeouts, and how much may wait unread.
    public func stream(_ target: Target, options: StreamOptions = StreamOptions()) -> ResponseStream {
        let controller = StreamController()
        let pipeline = self.pipeline
        controller.start(in: calls) { head in
            await pipeline.runStream(target, options: options, head: head)
        }
        return ResponseStream(controller: controller)
    }

    /// Starts `target` and reports upload and download progress.
    ///
    /// ```swift
    /// let transfer = provider.transfer(.download(to: file))
    /// for await event in transfer.events { if case .progress(let p) = event { print(p.fractionCompleted ?? 0) } }
    /// let response = try await transfer.response()
    /// ```
    public func transfer(_ target: Target) -> Transfer {
        let (events, continuation) = AsyncStream<TransferEvent>.makeStream(bufferingPolicy: .bufferingNewest(64))
        let pipelineEvents = PipelineEvents(onProgress: { continuation.yield(.progress($0)) })
        let task = calls.start { [pipeline] in
            let result = await pipeline.run(target, events: pipelineEvents)
            continuation.yield(.finished(result))
            continuation.finish()
            return result
        }
        return Transfer(events: events, task: task)
    }

    /// Sends `target` and calls `completion` once with the result, for code without async/await.
    /// - Parameters:
    ///   - target: The endpoint to call.
    ///   - callbackQueue: Where `completion` runs (`.main` for UI code). Default `nil`:
    ///     ``ProviderConfiguration/callbackQueue``, and when that is `nil` too, on the task that
    ///     ran the call.
    ///   - completion: Receives the final result, once.
    /// - Returns: A handle that cancels the request; `completion` then receives ``NetworkError/cancelled``.
    @discardableResult
    public func send(
        _ target: Target, callbackQueue: DispatchQueue? = nil, completion: @escaping @Sendable (Result<Response, NetworkError>) -> Void
    ) -> any Cancellable {
        let queue = callbackQueue ?? configuration.callbackQueue
        let task = calls.start { [pipeline] in
            let result = await pipeline.run(target, events: PipelineEvents())
            if let queue { queue.async { completion(result) } } else { completion(result) }
        }
        return TaskCancellable(task)
    }

    /// Cancels every call of this provider that is in flight now.
    ///
    /// Each call runs in a task of its own, and this cancels those tasks: Swift task
    /// cancellation, the only cancellation NetKit has. Whatever a call waits for stops as if its
    /// caller's task had been cancelled (the transfer, a retry wait, a shared
    /// ``DeduplicatingTransport`` transfer, a stream's body, and a plugin's or a transport's own
    /// `withTaskCancellationHandler`, `Task.sleep` or `AsyncStream` wait), `process` hooks still
    /// run, and the caller gets ``NetworkError/cancelled``. The tasks awaiting those calls are not
    /// cancelled: their next request runs normally. Calls started with
    /// ``send(_:callbackQueue:completion:)``, ``transfer(_:)``, ``responses(_:)`` and
    /// ``stream(_:options:)`` count from the moment those methods return, ``request(_:)`` from
    /// the moment it is called. Calls started afterwards are not affected. An answer a plugin
    /// already produced (a cache hit returned by `prepare`) is still returned.
    public func cancelAll() {
        calls.cancelAll()
    }

    /// How many calls are in flight (registered for ``cancelAll()``).
    package var inFlightCount: Int { calls.count }

    /// Runs the pipeline as a call of its own, started on the caller's thread (a cache hit never
    /// leaves it), which ``cancelAll()`` and the caller's cancellation both cancel.
    private func run(_ target: Target, events: PipelineEvents) async -> Result<Response, NetworkError> {
        let pipeline = self.pipeline
        return await calls.run { await pipeline.run(target, events: events) }
    }
}

/// Signals a provider's pipeline sends to stream consumers.
struct PipelineEvents: Sendable {
    var onProvisional: (@Sendable (Response) -> Void)?
    var onProgress: ProgressHandler?
}
