/// Replaces byte sequences inside byte buffers (for bodies that are not text).
enum ByteReplacement {
    /// `bytes` with every non-overlapping occurrence of `needle` replaced by `replacement`, or
    /// `nil` when `needle` does not occur (or is empty).
    static func replacing(_ needle: [UInt8], with replacement: [UInt8], in bytes: [UInt8]) -> [UInt8]? {
        guard let first = needle.first, needle.count <= bytes.count else { return nil }
        var output: [UInt8] = []
        var copied = 0
        var index = 0
        let last = bytes.count - needle.count
        while index <= last {
            if bytes[index] == first, matches(needle, in: bytes, at: index) {
                if output.isEmpty { output.reserveCapacity(bytes.count) }
                output.append(contentsOf: bytes[copied..<index])
                output.append(contentsOf: replacement)
                index += needle.count
                copied = index
            } else {
                index += 1
            }
        }
        guard copied > 0 else { return nil }
        output.append(contentsOf: bytes[copied...])
        return output
    }

    private static func matches(_ needle: [UInt8], in bytes: [UInt8], at start: Int) -> Bool {
        for offset in 1..<needle.count where bytes[start + offset] != needle[offset] { return false }
        return true
    }
}
