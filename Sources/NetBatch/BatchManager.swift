import Foundation
import NetCore

/// Runs many requests through a ``/NetCore/Provider`` with a concurrency limit, retries and ordered results.
///
/// Every item goes through `provider.request`, so every plugin of the provider applies to every
/// request, retries included.
///
/// ```swift
/// let batch = BatchManager(provider: provider,
///                          configuration: BatchConfiguration(maxConcurrent: 8, retryTiming: .backoff()))
/// let result = await batch.run(ids.map(API.user))
/// let users = try result.decode(as: User.self)
/// ```
///
/// Cancelling the calling task cancels every in-flight and pending item; the result marks them
/// (``BatchItemResult/wasCancelled``). Mix several target enums with `Provider<AnyTarget>`.
public struct BatchManager<Target: TargetType>: Sendable {
    /// Sends the target items.
    package let provider: Provider<Target>
    /// Limits, retries and fail-fast.
    package var configuration: BatchConfiguration

    /// Creates a batch manager.
    /// - Parameters:
    ///   - provider: Sends every target item (its plugins apply to each request).
    ///   - configuration: Default: 5 at a time, no retries, no fail-fast.
    public init(provider: Provider<Target>, configuration: BatchConfiguration = BatchConfiguration()) {
        self.provider = provider
        self.configuration = configuration
    }

    /// Sends every target and returns their outcomes in input order.
    /// - Parameters:
    ///   - targets: The requests; any count.
    ///   - onEvent: Receives progress events from the items' tasks, concurrently; keep it short.
    public func run(_ targets: [Target], onEvent: (@Sendable (BatchEvent) -> Void)? = nil) async -> BatchResult<Target> {
        let provider = provider
        let engine = BatchEngine<Target>(
            count: targets.count, configuration: configuration, decoder: provider.configuration.jsonDecoder, onEvent: onEvent,
            target: { targets[$0] },
            perform: { index async -> Result<Response, NetworkError> in
                do throws(NetworkError) {
                    return .success(try await provider.request(targets[index]))
                } catch {
                    return .failure(error)
                }
            }
        )
        return await engine.run()
    }

    /// Runs every item (targets and async operations) and returns their outcomes in input order.
    /// - Parameters:
    ///   - items: Targets for the provider, or operations such as chains.
    ///   - onEvent: Receives progress events from the items' tasks, concurrently; keep it short.
    public func run(_ items: [BatchItem<Target>], onEvent: (@Sendable (BatchEvent) -> Void)? = nil) async -> BatchResult<Target> {
        let provider = provider
        let engine = BatchEngine<Target>(
            count: items.count, configuration: configuration, decoder: provider.configuration.jsonDecoder, onEvent: onEvent,
            target: { items[$0].target },
            perform: { index async -> Result<Response, NetworkError> in
                switch items[index] {
                case .target(let target):
                    do throws(NetworkError) {
                        return .success(try await provider.request(target))
                    } catch {
                        return .failure(error)
                    }
                case .operation(let operation):
                    do {
                        return .success(try await operation())
                    } catch {
                        return .failure(Self.networkError(from: error))
                    }
                }
            }
        )
        return await engine.run()
    }

    /// Starts sending `targets` in a new task and returns its progress events and result.
    ///
    /// ```swift
    /// let running = batch.start(targets)
    /// for await event in running.events { if case .itemFinished(let i, _, _) = event { print(i) } }
    /// let result = await running.result()
    /// ```
    package func start(_ targets: [Target]) -> BatchRun<Target> {
        start(targets.map { BatchItem<Target>.target($0) })
    }

    /// Starts running `items` in a new task and returns its progress events and result.
    package func start(_ items: [BatchItem<Target>]) -> BatchRun<Target> {
        let (events, continuation) = AsyncStream<BatchEvent>.makeStream()
        let manager = self
        let task = Task {
            let result = await manager.run(items, onEvent: { continuation.yield($0) })
            continuation.finish()
            return result
        }
        return BatchRun(events: events, task: task)
    }

    /// Maps an operation's error to a ``NetworkError`` (see ``BatchItem``).
    static func networkError(from error: any Error) -> NetworkError {
        .mapping(error) { Task.isCancelled ? .cancelled : .transport(reason: String(describing: $0)) }
    }
}
