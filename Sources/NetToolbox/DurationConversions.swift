import Foundation

/// Conversions between `Duration` and plain numbers, in one place for every module: libcurl wants
/// whole milliseconds, Foundation wants seconds as a `Double`, HAR files count milliseconds, the
/// disk cache stores nanoseconds.
extension Duration {
    /// The duration in seconds, as a `Double`.
    package var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    /// The duration in milliseconds, as a `Double`.
    package var milliseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1000 + Double(attoseconds) / 1e15
    }

    /// Whole milliseconds, rounded up (1.2 ms gives 2), saturating at `Int64.max`.
    package var millisecondsRoundedUp: Int64 {
        let (seconds, attoseconds) = components
        let (millis, overflow) = seconds.multipliedReportingOverflow(by: 1000)
        if overflow { return seconds < 0 ? .min : .max }
        return millis + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
    }

    /// Whole nanoseconds, rounded toward zero, saturating at `Int64.min` and `Int64.max`.
    package var wholeNanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (product, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return seconds < 0 ? .min : .max }
        return product.addingReportingOverflow(attoseconds / 1_000_000_000).partialValue
    }

    /// Tenths of a millisecond, rounded toward zero (12.34 ms gives 123), for `12.3 ms` texts.
    package var tenthsOfMilliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 10_000 + attoseconds / 100_000_000_000_000
    }

    /// `seconds` as a duration of whole nanoseconds, rounded by `rule` (so 0.15 s is exactly
    /// 150 ms rather than 0.15000000000000002 s).
    package init(seconds: Double, roundedToNanoseconds rule: FloatingPointRoundingRule = .toNearestOrAwayFromZero) {
        self = .nanoseconds(Int64((seconds * 1_000_000_000).rounded(rule)))
    }

    /// `milliseconds` as a duration of whole microseconds, rounded to the nearest (HAR timings
    /// are milliseconds with a fraction).
    package init(milliseconds: Double) {
        self = .microseconds(Int64((milliseconds * 1000).rounded()))
    }
}
