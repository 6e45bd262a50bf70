import NetCore

/// How a ``BatchManager`` runs its items.
///
/// ```swift
/// let configuration = BatchConfiguration(maxConcurrent: 8, maxRetries: 2, retryTiming: .backoff())
/// ```
public struct BatchConfiguration: Sendable {
    /// The most items sending at the same time; never exceeded. Default: 5 (values below 1 mean 1).
    public var maxConcurrent: Int {
        didSet { maxConcurrent = Swift.max(1, maxConcurrent) }
    }
    /// The most batch retries per item (extra rounds, for ``RetryTiming/afterBatch``). An item is
    /// sent at most `maxRetries + 1` times by the batch. Default: 3 (values below 0 mean 0).
    public var maxRetries: Int {
        didSet { maxRetries = Swift.max(0, maxRetries) }
    }
    /// When failed items are tried again. Default: ``RetryTiming/none``.
    public var retryTiming: RetryTiming
    /// Whether the first failure cancels every other in-flight and pending item and skips any
    /// later round. A failure retried in its slot (``RetryTiming/immediately``,
    /// ``RetryTiming/backoff(initial:multiplier:max:)``) counts only once its retries are spent;
    /// with ``RetryTiming/afterBatch`` the first failed item stops the batch. Default: `false`.
    public var failFast: Bool
    /// Which failures are worth retrying. Cancellation is never retried, whatever this says.
    /// Default: ``defaultIsRetryable(_:)`` (everything except `permanent`).
    public var isRetryable: @Sendable (NetworkError) -> Bool
    /// How the batch waits before a ``RetryTiming/backoff(initial:multiplier:max:)`` retry; throwing
    /// (on cancellation) ends the item as cancelled. Default: `Task.sleep(for:)`. Inject a
    /// recording closure to test retry timing without waiting.
    package var sleep: @Sendable (Duration) async throws -> Void

    /// Creates a configuration; every argument has a default.
    public init(
        maxConcurrent: Int = 5, maxRetries: Int = 3, retryTiming: RetryTiming = .none, failFast: Bool = false,
        isRetryable: @escaping @Sendable (NetworkError) -> Bool = BatchConfiguration.defaultIsRetryable,
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    ) {
        self.maxConcurrent = Swift.max(1, maxConcurrent)
        self.maxRetries = Swift.max(0, maxRetries)
        self.retryTiming = retryTiming
        self.failFast = failFast
        self.isRetryable = isRetryable
        self.sleep = sleep
    }

    /// Retries every failure except those that would fail the same way again
    /// (`permanent`): request-building errors, a plugin's stop,
    /// cancellation, and protocol, pin and size violations by the server.
    @Sendable public static func defaultIsRetryable(_ error: NetworkError) -> Bool {
        !NetworkError.Code.permanent.contains(error.code)
    }
}
