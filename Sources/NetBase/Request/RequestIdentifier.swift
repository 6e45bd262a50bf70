import Foundation
import Synchronization

// Perf: Benchmarks row "CurlTransport, sequential" (provider overhead per request; `UUID()` cost microseconds).
/// Makes request identifiers cheaply: `UUID()` reads the system's random source on every call,
/// which costs microseconds per request on Linux. A random per-process prefix plus a counter is
/// unique within the process and, with 64 random bits, across processes in practice.
@usableFromInline
package enum RequestIdentifier {
    private static let prefix: UInt64 = .random(in: .min ... .max)
    private static let counter = Atomic<UInt64>(0)

    @usableFromInline
    package static func next() -> UUID {
        let count = counter.add(1, ordering: .relaxed).newValue
        let p = prefix
        return UUID(
            uuid: (
                UInt8(truncatingIfNeeded: p >> 56), UInt8(truncatingIfNeeded: p >> 48), UInt8(truncatingIfNeeded: p >> 40),
                UInt8(truncatingIfNeeded: p >> 32), UInt8(truncatingIfNeeded: p >> 24), UInt8(truncatingIfNeeded: p >> 16),
                // Version 4 and RFC 4122 variant bits, so the value reads as an ordinary random UUID.
                UInt8(truncatingIfNeeded: p >> 8) & 0x0F | 0x40, UInt8(truncatingIfNeeded: p),
                UInt8(truncatingIfNeeded: count >> 56) & 0x3F | 0x80, UInt8(truncatingIfNeeded: count >> 48),
                UInt8(truncatingIfNeeded: count >> 40), UInt8(truncatingIfNeeded: count >> 32),
                UInt8(truncatingIfNeeded: count >> 24), UInt8(truncatingIfNeeded: count >> 16),
                UInt8(truncatingIfNeeded: count >> 8), UInt8(truncatingIfNeeded: count)
            ))
    }
}
