import Foundation

/// Recorded HAR timings turned into durations; `-1` and missing phases do not count.
struct ReplayTiming {
    /// The whole exchange: `time`, or the sum of the phases when `time` is missing.
    var duration: Duration?
    /// `blocked` + `dns` + `connect` (which includes `ssl` per HAR 1.2), when any was recorded.
    var connect: Duration?
    /// The connection phases plus `send` and `wait`, when `wait` was recorded.
    var firstByte: Duration?

    init(time: Double?, timings: HARArchive.Timings?) {
        func phase(_ value: Double?) -> Double? { value.flatMap { $0 >= 0 && $0.isFinite ? $0 : nil } }
        let connectPhases = [timings?.blocked, timings?.dns, timings?.connect].compactMap(phase)
        let connectMilliseconds = connectPhases.isEmpty ? nil : connectPhases.reduce(0, +)
        let phases = connectPhases + [timings?.send, timings?.wait, timings?.receive].compactMap(phase)
        connect = connectMilliseconds.map(Self.duration)
        if let wait = phase(timings?.wait) {
            firstByte = Self.duration((connectMilliseconds ?? 0) + (phase(timings?.send) ?? 0) + wait)
        }
        if let total = phase(time) {
            duration = Self.duration(total)
        } else if !phases.isEmpty {
            duration = Self.duration(phases.reduce(0, +))
        }
    }

    private static func duration(_ milliseconds: Double) -> Duration {
        .microseconds(Int64((milliseconds * 1000).rounded()))
    }
}
