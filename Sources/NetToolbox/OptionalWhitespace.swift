/// HTTP's optional whitespace around field values and list elements (RFC 9110 §5.6.3: spaces and
/// horizontal tabs only), at the byte level.
package enum OptionalWhitespace {
    /// Whether `byte` is a space or a horizontal tab.
    @inlinable @inline(__always)
    package static func contains(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09
    }

    /// `bytes` without leading and trailing spaces and tabs (empty when nothing else is left).
    /// Inlinable, and specialized ahead for the curl engine's header bytes: it trims every header
    /// value on its loop thread, where an unspecialized call allocated on every byte it read.
    @inlinable
    @_specialize(exported:true,where Bytes == Slice<UnsafeRawBufferPointer>)
    package static func trimming<Bytes: BidirectionalCollection<UInt8>>(_ bytes: Bytes) -> Bytes.SubSequence {
        guard let first = bytes.firstIndex(where: { !contains($0) }), let last = bytes.lastIndex(where: { !contains($0) }) else {
            return bytes[bytes.endIndex...]
        }
        return bytes[first...last]
    }
}
