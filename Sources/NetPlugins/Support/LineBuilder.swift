import NetToolbox
import NetCore

// Perf: Benchmarks row "Logger + Capture overhead, CurlTransport, 8 concurrent".
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

    /// A number with its unit, such as `12.3 ms` or `1.2 KB` (see ``UnitText``).
    mutating func append(_ value: UnitText) {
        append(value.whole)
        if let tenth = value.tenth {
            bytes.append(UInt8(ascii: "."))
            append(tenth)
        }
        append(value.unit)
    }

    var string: String { String(decoding: bytes, as: UTF8.self) }
}
