/// Builds an ASCII-mostly log line in one byte buffer: cheaper than appending `String`s, which
/// re-checks grapheme boundaries and capacity on every append. Runs twice per logged request.
struct LineBuilder {
    private var bytes: [UInt8] = []

    init(capacity: Int = 128) {
        bytes.reserveCapacity(capacity)
    }

    mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    mutating func append(_ value: Int) {
        append(Int64(value))
    }

    mutating func append(_ value: Int64) {
        if value < 0 {
            bytes.append(UInt8(ascii: "-"))
            append(UInt64(value.magnitude))
        } else {
            append(UInt64(value))
        }
    }

    mutating func append(_ value: UInt64) {
        if value >= 10 { append(value / 10) }
        bytes.append(UInt8(ascii: "0") + UInt8(value % 10))
    }

    /// `12.3 ms`.
    mutating func appendMilliseconds(_ duration: Duration) {
        let tenths = max(0, duration.tenthsOfMilliseconds)
        append(tenths / 10)
        bytes.append(UInt8(ascii: "."))
        append(tenths % 10)
        append(" ms" as StaticString)
    }

    /// `95 B`, `1.2 KB`, `3.4 MB`.
    mutating func appendByteCount(_ count: Int64) {
        if count < 1024 {
            append(count)
            append(" B" as StaticString)
            return
        }
        let (tenths, unit): (Int64, StaticString) = count < 1024 * 1024 ? (count * 10 / 1024, " KB") : (count * 10 / (1024 * 1024), " MB")
        append(tenths / 10)
        bytes.append(UInt8(ascii: "."))
        append(tenths % 10)
        append(unit)
    }

    var string: String { String(decoding: bytes, as: UTF8.self) }
}
