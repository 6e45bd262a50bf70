/// A number with a unit for logs, without a formatter: `12.3 ms`, `95 B`, `1.2 KB`, `3.4 MB`.
///
/// Split into parts so that a byte buffer (the logger's line builder) can append them without
/// building a `String`; ``text`` joins them for everyone else.
package struct UnitText: Sendable {
    /// The whole part.
    package let whole: Int64
    /// The first decimal, or `nil` for a whole number.
    package let tenth: Int64?
    /// The unit with its leading space, such as `" ms"`.
    package let unit: StaticString

    /// A duration in milliseconds with one decimal, rounded toward zero; negative durations show
    /// as `0.0 ms`.
    package static func milliseconds(_ duration: Duration) -> UnitText {
        let tenths = max(0, duration.tenthsOfMilliseconds)
        return UnitText(whole: tenths / 10, tenth: tenths % 10, unit: " ms")
    }

    /// A byte count: whole bytes below 1 KiB, otherwise KB or MB (of 1024) with one decimal,
    /// rounded toward zero.
    package static func bytes(_ count: Int64) -> UnitText {
        if count < 1024 { return UnitText(whole: count, tenth: nil, unit: " B") }
        let (tenths, unit): (Int64, StaticString) = count < 1024 * 1024 ? (count * 10 / 1024, " KB") : (count * 10 / (1024 * 1024), " MB")
        return UnitText(whole: tenths / 10, tenth: tenths % 10, unit: unit)
    }

    /// The parts joined, such as `12.3 ms`.
    package var text: String {
        (tenth.map { "\(whole).\($0)" } ?? "\(whole)") + unit.description
    }
}
