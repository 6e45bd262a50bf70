/// Turns a byte stream that arrives in chunks into UTF-8 text lines: the framing behind a
/// stream's `lines` view.
///
/// Lines end at CR LF, LF or CR, also when a CR LF pair is split between two chunks; the endings
/// are not part of the lines, and empty lines are kept. Bytes that are not valid UTF-8 become
/// U+FFFD REPLACEMENT CHARACTER. The bytes after the last line ending form one more line, which
/// ``finish()`` returns. A line longer than ``maxLineLength`` bytes ends the stream with
/// ``StreamParsingError/lineTooLong(limit:)``.
package struct LineSplitter: Sendable {
    private var framer: LineFramer
    private var failure: StreamParsingError?

    /// Creates a splitter for one stream.
    ///
    /// - Parameters:
    ///   - maxLineLength: The longest line accepted, in bytes, its ending not counted (1 MiB by
    ///     default).
    ///   - stripsByteOrderMark: Whether one UTF-8 byte order mark at the start of the stream is
    ///     dropped (the default) rather than returned as U+FEFF at the start of the first line.
    package init(maxLineLength: Int = LineFramer.defaultMaxLineLength, stripsByteOrderMark: Bool = true) {
        framer = LineFramer(maxLineLength: maxLineLength, stripsByteOrderMark: stripsByteOrderMark)
    }

    /// The longest line accepted, in bytes, its line ending not counted.
    package var maxLineLength: Int { framer.maxLineLength }

    /// Splits the next chunk of the stream, appending each line it completes to `lines`.
    ///
    /// - Throws: ``StreamParsingError/lineTooLong(limit:)`` when a line passes
    ///   ``maxLineLength``. The lines completed before the long one are in `lines` already.
    ///   After an error every further call throws it again, until ``finish()``.
    package mutating func feed(
        _ chunk: some Collection<UInt8>,
        into lines: inout [String]
    ) throws(StreamParsingError) {
        if let failure { throw failure }
        var index = chunk.startIndex
        do {
            while let line = try framer.nextLine(in: chunk, from: &index) {
                lines.append(String(decoding: line, as: UTF8.self))
            }
        } catch {
            failure = error
            throw error
        }
    }

    /// Splits the next chunk of the stream and returns the lines it completes.
    ///
    /// - Throws: As ``feed(_:into:)``; the lines of this chunk before a line that is too long are
    ///   then lost, so a reader that must deliver them uses ``feed(_:into:)``.
    package mutating func feed(_ chunk: some Collection<UInt8>) throws(StreamParsingError) -> [String] {
        var lines: [String] = []
        try feed(chunk, into: &lines)
        return lines
    }

    /// Ends the stream: returns its last line if the stream did not end with a line ending (and
    /// `nil` if it did, or held nothing). The splitter is then ready for a new stream, and a
    /// previous error is forgotten.
    package mutating func finish() -> String? {
        let hadFailed = failure != nil
        failure = nil
        let line = framer.finish()
        guard !hadFailed, let line else { return nil }
        return String(decoding: line, as: UTF8.self)
    }
}
