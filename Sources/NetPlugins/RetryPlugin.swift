import NetToolbox
import Foundation
import NetCore

/// Retries failed requests with exponential backoff and full jitter, honouring `Retry-After`.
///
/// ```swift
/// let provider = Provider<API>(plugins: [RetryPlugin()])           // 2 retries, 0.5 s, 1 s (jittered)
/// let patient = RetryPlugin(maxRetries: 4, baseDelay: .seconds(1), maxDelay: .seconds(20),
///                           retryableMethods: [.get, .post])       // POST only if your API is idempotent
/// ```
///
/// Decides in `failure` (transport errors, and statuses the target's validation rejected) and in
/// `succeed` (retryable statuses the validation accepted). By default it retries:
/// - only idempotent methods: GET, HEAD, PUT, DELETE, OPTIONS;
/// - statuses 408, 429, 500, 502, 503 and 504;
/// - transient transport errors (``/NetCore/NetworkError/isTransient``: timeouts, lost or refused
///   connections, DNS failures, truncated bodies);
/// - at most `maxRetries` times per call (the provider's ``/NetCore/ProviderConfiguration/maxAttempts``
///   caps attempts too: the smaller limit wins).
///
/// Cancellation is never retried. The wait before retry *n* (1-based) is a random duration in
/// `0...min(maxDelay, baseDelay × multiplier^(n-1))` ("full jitter"), unless the response carries
/// `Retry-After` (seconds or an HTTP-date), which is used instead, capped at `maxRetryAfter`.
public struct RetryPlugin: Plugin {
    /// Retries after the first attempt. Default 2.
    package let maxRetries: Int
    /// The backoff before the first retry, before jitter. Default 0.5 s.
    package let baseDelay: Duration
    /// Growth factor per retry. Default 2.
    package let multiplier: Double
    /// The largest backoff before jitter. Default 30 s.
    package let maxDelay: Duration
    /// Whether the backoff is randomised in `0...backoff` (full jitter). Default `true`.
    package let jitter: Bool
    /// Methods that may be retried. Default: the idempotent ones.
    package let retryableMethods: Set<HTTPMethod>
    /// Status codes that are retried. Default: 408, 429, 500, 502, 503, 504.
    package let retryableStatuses: Set<Int>
    /// Whether transient transport errors are retried. Default `true`.
    package let retriesTransientErrors: Bool
    /// Whether `Retry-After` replaces the backoff. Default `true`.
    package let honorsRetryAfter: Bool
    /// The longest `Retry-After` wait honoured; longer values are cut to it. Default 60 s.
    package let maxRetryAfter: Duration
    private let shouldRetry: (@Sendable (NetworkError, Request) -> Bool)?
    private let random: @Sendable () -> Double
    private let now: @Sendable () -> Date

    /// The default retryable methods: GET, HEAD, PUT, DELETE, OPTIONS.
    public static let idempotentMethods: Set<HTTPMethod> = [.get, .head, .put, .delete, .options]
    /// The default retryable statuses: 408, 429, 500, 502, 503, 504.
    public static let defaultStatuses: Set<Int> = [408, 429, 500, 502, 503, 504]

    /// Creates a retry plugin; every knob has a default.
    /// - Parameters:
    ///   - maxRetries: Retries after the first attempt.
    ///   - baseDelay: Backoff before the first retry.
    ///   - multiplier: Backoff growth per retry.
    ///   - maxDelay: Backoff cap.
    ///   - jitter: Randomise each wait in `0...backoff`.
    ///   - retryableMethods: Methods that may be retried.
    ///   - retryableStatuses: Statuses that are retried.
    ///   - retriesTransientErrors: Retry timeouts, lost connections and the like.
    ///   - honorsRetryAfter: Wait as long as `Retry-After` says.
    ///   - maxRetryAfter: Cap for `Retry-After`.
    ///   - shouldRetry: When set, decides instead of the status and error rules (methods, the retry
    ///     count and cancellation still apply).
    ///   - random: Returns a number in `0...1` for jitter (inject for deterministic tests).
    ///   - now: The current date, for HTTP-date `Retry-After` values (inject for tests).
    public init(
        maxRetries: Int = 2, baseDelay: Duration = .milliseconds(500), multiplier: Double = 2,
        maxDelay: Duration = .seconds(30), jitter: Bool = true,
        retryableMethods: Set<HTTPMethod> = RetryPlugin.idempotentMethods,
        retryableStatuses: Set<Int> = RetryPlugin.defaultStatuses, retriesTransientErrors: Bool = true,
        honorsRetryAfter: Bool = true, maxRetryAfter: Duration = .seconds(60),
        shouldRetry: (@Sendable (NetworkError, Request) -> Bool)? = nil,
        random: @escaping @Sendable () -> Double = { Double.random(in: 0...1) },
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.maxRetries = max(0, maxRetries)
        self.baseDelay = baseDelay
        self.multiplier = multiplier
        self.maxDelay = maxDelay
        self.jitter = jitter
        self.retryableMethods = retryableMethods
        self.retryableStatuses = retryableStatuses
        self.retriesTransientErrors = retriesTransientErrors
        self.honorsRetryAfter = honorsRetryAfter
        self.maxRetryAfter = maxRetryAfter
        self.shouldRetry = shouldRetry
        self.random = random
        self.now = now
    }

    public func succeed(_ response: Response, for request: Request) async -> SucceedAction {
        guard mayRetry(request), decides(.unacceptableStatus(response), request) else { return .proceed }
        return .retry(after: delay(after: request.attempt, response: response))
    }

    public func failure(_ error: NetworkError, for request: Request) async -> FailureAction {
        guard !error.isCancellation, mayRetry(request), decides(error, request) else { return .proceed }
        return .retry(after: delay(after: request.attempt, response: error.response))
    }

    /// The backoff before the retry that follows `attempt` (1-based), before jitter:
    /// `min(maxDelay, baseDelay × multiplier^(attempt-1))`.
    package func backoff(after attempt: Int) -> Duration {
        Backoff(initial: baseDelay, multiplier: multiplier, maximum: maxDelay).delay(beforeRetry: attempt)
    }

    /// The wait before retrying after `attempt`: `Retry-After` when present and honoured, otherwise
    /// the jittered backoff.
    package func delay(after attempt: Int, response: Response?) -> Duration {
        if honorsRetryAfter, let value = response?.headers["Retry-After"],
            let wait = RetryAfter.parse(value, now: now())
        {
            return min(wait, maxRetryAfter)
        }
        let backoff = backoff(after: attempt)
        guard jitter else { return backoff }
        return .seconds(backoff.seconds * min(1, max(0, random())))
    }

    private func mayRetry(_ request: Request) -> Bool {
        request.attempt <= maxRetries && retryableMethods.contains(request.method) && !Task.isCancelled
    }

    private func decides(_ error: NetworkError, _ request: Request) -> Bool {
        if let shouldRetry { return shouldRetry(error, request) }
        if let status = error.statusCode, case .unacceptableStatus = error { return retryableStatuses.contains(status) }
        return retriesTransientErrors && error.isTransient
    }
}

/// Parses `Retry-After` values: delay-seconds or an IMF-fixdate HTTP-date (RFC 9110 §10.2.3).
enum RetryAfter {
    static func parse(_ value: String, now: Date) -> Duration? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if let seconds = Int(trimmed) { return seconds >= 0 ? .seconds(seconds) : nil }
        guard let date = httpDate(trimmed) else { return nil }
        return .seconds(max(0, date.timeIntervalSince(now)))
    }

    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// `Sun, 06 Nov 1994 08:49:37 GMT`, without a DateFormatter.
    static func httpDate(_ text: String) -> Date? {
        let parts = text.split(separator: " ")
        guard parts.count == 6, parts[5] == "GMT", let day = Int(parts[1]),
            let month = months.firstIndex(of: String(parts[2])), let year = Int(parts[3])
        else { return nil }
        let time = parts[4].split(separator: ":").compactMap { Int($0) }
        guard time.count == 3, (1...31).contains(day), (0...23).contains(time[0]), (0...59).contains(time[1]),
            (0...60).contains(time[2])
        else { return nil }
        // Days since 1970-01-01 (civil-from-days inverse, proleptic Gregorian).
        let y = month < 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let shiftedMonth = (month + 10) % 12
        let dayOfYear = (153 * shiftedMonth + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        let seconds = days * 86_400 + time[0] * 3600 + time[1] * 60 + time[2]
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }
}
