import Foundation

extension UUID {
    /// A random (version 4) UUID from the system generator.
    ///
    /// `UUID()` on Linux opens `/dev/urandom` on every call (about 10% of a cached request);
    /// `SystemRandomNumberGenerator` uses `getrandom` without a file descriptor.
    static func randomRequestID() -> UUID {
        var generator = SystemRandomNumberGenerator()
        var bytes = (generator.next() as UInt64, generator.next() as UInt64)
        return withUnsafeMutableBytes(of: &bytes) { raw in
            raw[6] = (raw[6] & 0x0f) | 0x40  // version 4
            raw[8] = (raw[8] & 0x3f) | 0x80  // RFC 4122 variant
            return UUID(uuid: (raw[0], raw[1], raw[2], raw[3], raw[4], raw[5], raw[6], raw[7],
                               raw[8], raw[9], raw[10], raw[11], raw[12], raw[13], raw[14], raw[15]))
        }
    }
}
