/// Finds the lines of a byte stream that arrives in chunks: the framing shared by
/// ``LineSplitter`` and ``ServerSentEventParser``.
///
/// A line ends at CR LF, LF or CR. A CR that ends one chunk and an LF that starts the next are
/// one line ending, not two. Lines come out as raw bytes without their ending; the first line of
/// the stream loses one leading UTF-8 byte order mark (EF BB BF) when ``stripsByteOrderMark`` is
/// set. A line longer than ``maxLineLength`` bytes is refused before it is stored, so memory
/// stays bounded whatever the stream holds.
package struct LineFramer: Sendable {
    /// The default bound on a line's length: 1 MiB.
    package static let defaultMaxLineLength = 1 << 20

    /// The longest line accepted, in bytes, its line ending not counted.
    package let maxLineLength: Int

    /// Whether one leading byte order mark is removed from the stream's first line.
    package let stripsByteOrderMark: Bool

    /// LF, U+000A.
    private static let lineFeed = UInt8(ascii: "\n")
    /// CR, U+000D.
    private static let carriageReturn = UInt8(ascii: "\r")
    /// U+FEFF BYTE ORDER MARK in UTF-8.
    private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// The bytes of the line in progress (its start arrived, its end has not).
    private var partial: [UInt8] = []
    /// The last line ended with CR: an LF that comes next belongs to that ending.
    private var afterCarriageReturn = false
    /// No line has been taken yet, so the next one is where a byte order mark can be.
    private var atFirstLine = true

    /// Creates a framer for one stream.
    ///
    /// - Parameters:
    ///   - maxLineLength: The longest line accepted, in bytes (at least 1).
    ///   - stripsByteOrderMark: Whether one leading UTF-8 byte order mark is removed.
    package init(maxLineLength: Int = defaultMaxLineLength, stripsByteOrderMark: Bool) {
        self.maxLineLength = max(1, maxLineLength)
        self.stripsByteOrderMark = stripsByteOrderMark
    }

    /// Returns the next complete line in `chunk` at or after `index`, and moves `index` past its
    /// line ending; returns `nil` once `chunk` holds no further line ending (`index` is then
    /// `chunk.endIndex` and the remaining bytes wait for the next chunk).
    ///
    /// Call it in a loop until it returns `nil`, then pass the next chunk.
    ///
    /// - Throws: ``StreamParsingError/lineTooLong(limit:)`` when the line in progress would pass
    ///   ``maxLineLength``; nothing of the offending bytes is stored.
    package mutating func nextLine<Chunk: Collection<UInt8>>(
        in chunk: Chunk,
        from index: inout Chunk.Index
    ) throws(StreamParsingError) -> [UInt8]? {
        if afterCarriageReturn, index < chunk.endIndex {
            afterCarriageReturn = false
            if chunk[index] == Self.lineFeed { chunk.formIndex(after: &index) }
        }
        let rest = chunk[index...]
        guard let end = rest.firstIndex(where: { $0 == Self.lineFeed || $0 == Self.carriageReturn }) else {
            try store(rest)
            index = chunk.endIndex
            return nil
        }
        try store(chunk[index..<end])
        afterCarriageReturn = chunk[end] == Self.carriageReturn
        index = chunk.index(after: end)
        return takeLine()
    }

    /// Ends the stream: returns the unterminated last line, if it has any bytes (a byte order
    /// mark alone does not count), and makes the framer ready for a new stream.
    package mutating func finish() -> [UInt8]? {
        let line = partial.isEmpty ? nil : takeLine()
        partial = []
        afterCarriageReturn = false
        atFirstLine = true
        guard let line, !line.isEmpty else { return nil }
        return line
    }

    /// Appends `bytes` to the line in progress, or throws if that would make it too long.
    private mutating func store(_ bytes: some Collection<UInt8>) throws(StreamParsingError) {
        let count = bytes.count
        guard count > 0 else { return }
        guard count <= maxLineLength - partial.count else {
            throw .lineTooLong(limit: maxLineLength)
        }
        partial.append(contentsOf: bytes)
    }

    /// Hands out the line in progress (without a leading byte order mark on the first line).
    private mutating func takeLine() -> [UInt8] {
        var line = partial
        partial = []
        if atFirstLine {
            atFirstLine = false
            if stripsByteOrderMark, line.starts(with: Self.byteOrderMark) {
                line.removeFirst(Self.byteOrderMark.count)
            }
        }
        return line
    }
}
