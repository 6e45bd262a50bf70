import NetCore

/// One entry of a batch: a target the batch's provider sends, or any async work that produces a
/// response (a whole `Chain` of dependent requests, a request through another provider).
///
/// ```swift
/// let items: [BatchItem<API>] = [
///     .target(.user(1)),
///     .operation { try await Chain(provider, .register).then { .profile(try $0.decode(ID.self)) }.run { $0 } },
/// ]
/// ```
///
/// An operation's ``/NetCore/NetworkError`` is kept as it is; `CancellationError` (or any error thrown
/// while the batch is being cancelled) becomes ``/NetCore/NetworkError/cancelled``; any other error becomes
/// ``/NetCore/NetworkError/transport(reason:underlying:)`` carrying its description. Throw a `NetworkError` yourself
/// to keep the case (a `ChainError` offers `networkError` for that). Batch retries of an
/// operation call the closure again.
public enum BatchItem<Target: TargetType>: Sendable {
    /// Sent with the batch manager's provider, so every plugin applies.
    case target(Target)
    /// Any async work producing a response; it runs in a concurrency slot like a target.
    case operation(@Sendable () async throws -> Response)

    /// The target, for ``target(_:)`` items.
    package var target: Target? {
        if case .target(let target) = self { return target }
        return nil
    }
}
