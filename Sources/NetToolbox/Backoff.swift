import Foundation

/// Exponential backoff: the wait before retry `n` is `initial × multiplier^(n-1)`, never more
/// than `maximum` and never negative, in whole nanoseconds.
package struct Backoff: Sendable, Hashable {
    /// The wait before the first retry.
    package var initial: Duration
    /// Growth factor between retries (1 keeps the wait constant).
    package var multiplier: Double
    /// The longest wait; also the answer when the growth overflows.
    package var maximum: Duration

    /// A backoff from `initial`, growing by `multiplier`, capped at `maximum`.
    package init(initial: Duration, multiplier: Double, maximum: Duration) {
        self.initial = initial
        self.multiplier = multiplier
        self.maximum = maximum
    }

    /// The wait before retry number `retry` (1 for the first retry; smaller numbers count as 1).
    package func delay(beforeRetry retry: Int) -> Duration {
        let seconds = initial.seconds * pow(multiplier, Double(max(0, retry - 1)))
        guard seconds.isFinite, seconds < maximum.seconds else { return maximum }
        // Whole nanoseconds, so 50 ms × 3 is exactly 150 ms rather than 0.15000000000000002 s.
        return Duration(seconds: max(0, seconds))
    }
}
