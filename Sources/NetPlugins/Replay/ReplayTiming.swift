import Foundation

/// Recorded HAR timings turned into durations; `-1` and missing phases do not count.
struct ReplayTiming {
    /// The whole exchange: `time`, or the sum of the phases when `time` is missing.
    var duration: Duration?
    /// `blocked` + `dns` + `connect` (which includes `ssl` per HAR 1.2), when any was recorded.
    var connect: Duration?
    /// The connection phases plus `send` and `wait`, when `wait` was recorded.
    var firstByte: Duration?

    init(time: Double?, timings: HARDocument.Timings?) {
        func phase(_ value: Double?) -> Double? { value.flatMap { $0 >= 0 && $0.isFinite ? $0 : nil } }
        let connectPhases = [timings?.blocked, timings?.dns, timings?.connect].compactMap(phase)
        let connectMilliseconds = connectPhases.isEmpty ? nil : connectPhases.reduce(0, +)
        let phases = connectPhases + [timings?.send, timings?.wait, timings?.receive].compactMap(phase)
        connect = connectMilliseconds.map(Duration.init(milliseconds:))
        if let wait = phase(timings?.wait) {
            firstByte = Duration(milliseconds: (connectMilliseconds ?? 0) + (phase(timings?.send) ?? 0) + wait)
        }
        if let total = phase(time) {
            duration = Duration(milliseconds: total)
        } else if !phases.isEmpty {
            duration = Duration(milliseconds: phases.reduce(0, +))
        }
    }
}
