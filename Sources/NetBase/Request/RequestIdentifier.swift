import Foundation
import Synchronization

// Perf: Benchmarks row "CurlTransport, sequential" (provider overhead per request; `UUID()` cost microseconds).
/// Makes the `UUID`s that identify calls (``Request/id``: one per call, the same for each of its
/// attempts), cheaply: `UUID()` reads the system's random source on every call, which costs
/// microseconds per request on Linux.
///
/// They have a random UUID's form (version 4 and variant bits) but are not random: 64 bits drawn
/// once per process, then a counter. So they are unique within the process and, in practice,
/// across processes, but one predicts the next: an identifier for logs and tables, never a
/// secret (nothing in NetKit uses one as a token or a multipart boundary).
@usableFromInline
package enum RequestIdentifier {
    private static let prefix: UInt64 = .random(in: .min ... .max)
    private static let counter = Atomic<UInt64>(0)

    /// The identifier of the next call: the process's 64 bits, then the counter's next value.
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
