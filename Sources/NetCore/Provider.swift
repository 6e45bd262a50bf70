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
/// the returned ``Cancellable``, or ``cancelAll()`` (which ends the calls, not their tasks).
/// ``request(_:)`` runs in the calling task: no extra task or thread hop per request.
public final class Provider<Target: TargetType>: Sendable {
    /// The transport that sends requests.
    public let transport: any Transport
    /// The plugins, in hook order.
    public let plugins: [any Plugin]
    /// Shared settings.
    public let configuration: ProviderConfiguration

    let pipeline: Pipeline
    private let inFlight = InFlightRegistry()

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
        let call = registerCall()
        let task = Task { [self] in
            switch await run(target, events: events, registered: call) {
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
        let inFlight = self.inFlight
        let call = registerCall()
        controller.start { head in
            defer { inFlight.remove(call.token) }
            await pipeline.runStream(target, options: options, head: head, cancellation: call.cancellation)
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
        let call = registerCall()
        let task = Task { [self] in
            let result = await run(target, events: pipelineEvents, registered: call)
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
        let call = registerCall()
        let queue = callbackQueue ?? configuration.callbackQueue
        let task = Task { [self] in
            let result = await run(target, events: PipelineEvents(), registered: call)
            if let queue { queue.async { completion(result) } } else { completion(result) }
        }
        return TaskCancellable(task)
    }

    /// Ends every call of this provider that is in flight now.
    ///
    /// Each call ends as if its task had been cancelled: whatever it waits for (the transfer, a
    /// retry wait, a shared ``DeduplicatingTransport`` transfer, a stream's body) stops, `process`
    /// hooks still run, and the caller gets ``NetworkError/cancelled``. The tasks awaiting those
    /// calls are not cancelled: code that keeps running in such a task afterwards runs normally.
    /// Calls started with ``send(_:callbackQueue:completion:)``, ``transfer(_:)``, ``responses(_:)`` and
    /// ``stream(_:options:)`` count from the moment those methods return. Calls started
    /// afterwards are not affected.
    ///
    /// A plugin's own waits (a `Task.sleep` in `prepare`, say) are not interrupted unless they
    /// wait through ``Request/withCancellationHandler(operation:onCancel:isolation:)``; the call
    /// then ends at its next step. An answer a plugin already produced (a cache hit returned by
    /// `prepare`) is still returned.
    public func cancelAll() {
        inFlight.cancelAll()
    }

    /// How many calls are in flight (registered for ``cancelAll()``).
    package var inFlightCount: Int { inFlight.count }

    /// Runs the pipeline in the caller's task (a task per request would double the cost of a
    /// cache hit), registered so ``cancelAll()`` can end it. Calls that run in a task of their
    /// own pass the registration made before that task was created (`registered`), so a
    /// `cancelAll()` right after such a call returns still reaches it.
    private func run(
        _ target: Target, events: PipelineEvents, registered: (cancellation: CallCancellation, token: Int)? = nil
    ) async -> Result<Response, NetworkError> {
        let call = registered ?? registerCall()
        defer { inFlight.remove(call.token) }
        return await pipeline.run(target, events: events, cancellation: call.cancellation)
    }

    /// A new call's cancellation, registered for ``cancelAll()`` until removed.
    private func registerCall() -> (cancellation: CallCancellation, token: Int) {
        let cancellation = CallCancellation()
        return (cancellation, inFlight.insert(cancellation))
    }
}

/// Signals a provider's pipeline sends to stream consumers.
struct PipelineEvents: Sendable {
    var onProvisional: (@Sendable (Response) -> Void)?
    var onProgress: ProgressHandler?
}

/// The calls of one provider in flight, so `cancelAll()` can reach them without touching the
/// tasks that run them.
final class InFlightRegistry: Sendable {
    private let calls = Locked<(next: Int, running: [Int: CallCancellation])>((0, [:]))

    /// Registers a running call until ``remove(_:)``.
    func insert(_ call: CallCancellation) -> Int {
        calls.withLock { state in
            state.next += 1
            state.running[state.next] = call
            return state.next
        }
    }

    /// Forgets a call that ended.
    func remove(_ token: Int) {
        _ = calls.withLock { $0.running.removeValue(forKey: token) }
    }

    /// How many calls are registered.
    var count: Int { calls.withLock { $0.running.count } }

    /// Cancels every registered call; their handlers run after the lock is released.
    func cancelAll() {
        let running = calls.withLock { Array($0.running.values) }
        for call in running { call.cancel() }
    }
}
