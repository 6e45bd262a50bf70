import Foundation
import NetCore
import Testing

/// The `lines` framing, each case checked with the stream fed whole, byte by byte, in 2-byte and
/// in 7-byte chunks: every chunking must give the same lines.
@Suite("LineSplitter")
struct LineSplitterTests {
    @Test("LF, CRLF and CR each end a line; the endings are not part of the lines")
    func endings() throws {
        #expect(try lines("a\nb\r\nc\rd\n") == ["a", "b", "c", "d"])
    }

    @Test("empty lines are kept; CR CR and LF CR are two endings, CR LF is one")
    func emptyLines() throws {
        #expect(try lines("\n\r\n\r") == ["", "", ""])
        #expect(try lines("a\r\rb\n\rc\r\n\r\nd") == ["a", "", "b", "", "c", "", "d"])
    }

    @Test("a CR ending one chunk and an LF starting the next are one line ending")
    func splitCRLF() throws {
        var splitter = LineSplitter()
        #expect(try splitter.feed(Array("a\r".utf8)) == ["a"])
        #expect(try splitter.feed([UInt8]()) == [])
        #expect(try splitter.feed(Array("\nb\r".utf8)) == ["b"])
        #expect(try splitter.feed(Array("\r".utf8)) == [""])
        #expect(try splitter.feed(Array("\n".utf8)) == [])
        #expect(try splitter.feed(Array("\n".utf8)) == [""])
        #expect(splitter.finish() == nil)
    }

    @Test("the last line without an ending comes from finish; none if the stream ended with one")
    func finish() throws {
        var splitter = LineSplitter()
        #expect(try splitter.feed(Array("one\ntwo".utf8)) == ["one"])
        #expect(splitter.finish() == "two")
        #expect(try splitter.feed(Array("three\r".utf8)) == ["three"])
        #expect(splitter.finish() == nil)
        #expect(splitter.finish() == nil)
        #expect(try lines("") == [])
        #expect(try lines("x") == ["x"])
        #expect(try lines("x\r\n") == ["x"])
    }

    @Test("one leading byte order mark is dropped by default, at the start of the stream only")
    func byteOrderMark() throws {
        #expect(try lines("\u{FEFF}a\n\u{FEFF}b") == ["a", "\u{FEFF}b"])
        #expect(try lines("\u{FEFF}\u{FEFF}a") == ["\u{FEFF}a"])
        #expect(try lines("\u{FEFF}\n") == [""])
        #expect(try lines("\u{FEFF}") == [])
        #expect(try lines("\u{FEFF}a\n", stripsByteOrderMark: false) == ["\u{FEFF}a"])
    }

    @Test("after finish the splitter reads a new stream: a pending CR is forgotten, a BOM dropped again")
    func reuse() throws {
        var splitter = LineSplitter()
        #expect(try splitter.feed(Array("\u{FEFF}a\r".utf8)) == ["a"])
        #expect(splitter.finish() == nil)
        #expect(try splitter.feed(Array("\n\u{FEFF}b\n".utf8)) == ["", "\u{FEFF}b"])
        #expect(splitter.finish() == nil)
        #expect(try splitter.feed(Array("\u{FEFF}c\n".utf8)) == ["c"])
    }

    @Test("UTF-8 is decoded across chunk boundaries; invalid bytes become U+FFFD")
    func utf8() throws {
        #expect(try lines("caf\u{E9}\n😀 \u{4E2D}\r\n") == ["caf\u{E9}", "😀 \u{4E2D}"])
        let invalid: [UInt8] = [0x61, 0xFF, 0x0A, 0xF0, 0x9F, 0x0D, 0xE2, 0x82]
        #expect(try lines(invalid) == ["a\u{FFFD}", "\u{FFFD}", "\u{FFFD}"])
    }

    @Test("any Collection of bytes is accepted: Data, ArraySlice, a byte view")
    func collections() throws {
        var splitter = LineSplitter()
        var result = try splitter.feed(Data("a\nb".utf8))
        try splitter.feed(Array("c\r".utf8)[...], into: &result)
        try splitter.feed("\nd\n".utf8, into: &result)
        #expect(result == ["a", "bc", "d"])
    }

    @Test("a line longer than maxLineLength throws lineTooLong; earlier lines are delivered")
    func lineTooLong() throws {
        let stream = Array("1234\n12345\nok\n".utf8)
        for size in Self.chunkSizes {
            var splitter = LineSplitter(maxLineLength: 4)
            var delivered: [String] = []
            #expect(throws: StreamParsingError.lineTooLong(limit: 4)) {
                for chunk in Self.cut(stream, size: size) {
                    try splitter.feed(chunk, into: &delivered)
                }
            }
            #expect(delivered == ["1234"])
            #expect(throws: StreamParsingError.lineTooLong(limit: 4)) { try splitter.feed(Array("\n".utf8)) }
            #expect(splitter.finish() == nil)
            #expect(try splitter.feed(Array("next\n".utf8)) == ["next"])
        }
    }

    @Test("a line without an ending is refused as soon as it passes the bound")
    func unterminatedLongLine() throws {
        var splitter = LineSplitter(maxLineLength: 4096)
        let block = [UInt8](repeating: UInt8(ascii: "x"), count: 1000)
        for _ in 0..<4 { #expect(try splitter.feed(block) == []) }
        #expect(throws: StreamParsingError.lineTooLong(limit: 4096)) { try splitter.feed(block) }
        #expect(splitter.maxLineLength == 4096)
        #expect(LineSplitter().maxLineLength == 1 << 20)
    }

    @Test("a line exactly maxLineLength bytes long is accepted, also as the last line")
    func lineAtLimit() throws {
        #expect(try lines("abcd\r\nefgh", maxLineLength: 4) == ["abcd", "efgh"])
    }

    // MARK: Helpers

    /// The chunk sizes every stream is fed in; `nil` is the whole stream at once.
    static let chunkSizes: [Int?] = [nil, 1, 2, 7]

    /// `bytes` cut into chunks of `size` bytes (one chunk when `size` is `nil`).
    static func cut(_ bytes: [UInt8], size: Int?) -> [ArraySlice<UInt8>] {
        guard let size else { return [bytes[...]] }
        return stride(from: 0, to: bytes.count, by: size).map { bytes[$0..<min(bytes.count, $0 + size)] }
    }

    /// The lines of a whole stream (the last from `finish()`), after checking that every chunking
    /// gives the same.
    func lines(_ text: String, maxLineLength: Int = 1 << 20, stripsByteOrderMark: Bool = true) throws -> [String] {
        try lines(Array(text.utf8), maxLineLength: maxLineLength, stripsByteOrderMark: stripsByteOrderMark)
    }

    /// The lines of a whole stream of bytes, after checking that every chunking gives the same.
    func lines(_ bytes: [UInt8], maxLineLength: Int = 1 << 20, stripsByteOrderMark: Bool = true) throws -> [String] {
        var results: [[String]] = []
        for size in Self.chunkSizes {
            var splitter = LineSplitter(maxLineLength: maxLineLength, stripsByteOrderMark: stripsByteOrderMark)
            var result: [String] = []
            for chunk in Self.cut(bytes, size: size) {
                try splitter.feed(chunk, into: &result)
            }
            if let last = splitter.finish() { result.append(last) }
            results.append(result)
        }
        for (size, result) in zip(Self.chunkSizes, results) {
            #expect(result == results[0], "chunks of \(size.map(String.init) ?? "all") bytes")
        }
        return results[0]
    }
}
