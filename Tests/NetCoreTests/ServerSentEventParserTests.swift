import Foundation
import NetCore
import Testing

/// The WHATWG event-stream rules, each checked with the stream fed whole, byte by byte, in 2-byte
/// and in 7-byte chunks (and at random cuts): every chunking must give the same events.
@Suite("ServerSentEventParser")
struct ServerSentEventParserTests {
    // MARK: Events and fields

    @Test("a data line and a blank line make one message event")
    func simpleEvent() throws {
        #expect(try events("data: hello\n\n") == [ServerSentEvent(data: "hello")])
    }

    @Test("data lines are joined with line feeds; only the last line feed is removed")
    func multiLineData() throws {
        #expect(try events("data: a\ndata: b\n\n") == [ServerSentEvent(data: "a\nb")])
        #expect(try events("data: a\ndata: b\ndata\n\n") == [ServerSentEvent(data: "a\nb\n")])
        #expect(try events("data\ndata\n\n") == [ServerSentEvent(data: "\n")])
    }

    @Test("one space after the colon is removed, once; other whitespace stays")
    func spaceAfterColon() throws {
        #expect(try events("data:no-space\n\n") == [ServerSentEvent(data: "no-space")])
        #expect(try events("data:  two\n\n") == [ServerSentEvent(data: " two")])
        #expect(try events("data:\tx \n\n") == [ServerSentEvent(data: "\tx ")])
        #expect(try events("data: \n\n") == [ServerSentEvent(data: "")])
    }

    @Test("the value runs from the first colon to the end of the line")
    func colonInValue() throws {
        #expect(try events("data: a: b:c\nid: x:y\n\n") == [ServerSentEvent(data: "a: b:c", id: "x:y")])
    }

    @Test("a line without a colon is a field name with an empty value")
    func fieldWithoutColon() throws {
        #expect(try events("data\n\n") == [ServerSentEvent(data: "")])
        #expect(try events("event: a\nevent\ndata: x\n\n") == [ServerSentEvent(data: "x")])
        #expect(
            try events("id: 1\ndata: a\n\nid\ndata: b\n\n") == [
                ServerSentEvent(data: "a", id: "1"),
                ServerSentEvent(data: "b"),
            ])
    }

    @Test("comment lines are ignored, also between the fields of an event")
    func comments() throws {
        #expect(try events(":\n: hello\n:data: no\n\n") == [])
        #expect(try events("data: a\n: between\ndata: b\n\n") == [ServerSentEvent(data: "a\nb")])
        #expect(try events(": only a comment before the blank line\n\ndata: x\n\n") == [ServerSentEvent(data: "x")])
    }

    @Test("event sets the type of one event; an empty one means message")
    func eventType() throws {
        #expect(
            try events("event: update\ndata: 1\n\ndata: 2\n\nevent:\ndata: 3\n\n") == [
                ServerSentEvent(event: "update", data: "1"),
                ServerSentEvent(data: "2"),
                ServerSentEvent(data: "3"),
            ])
    }

    @Test("a blank line without data dispatches nothing and clears the event type")
    func noDataNoEvent() throws {
        var parser = ServerSentEventParser()
        let first = try feedAll("event: a\nid: 5\n\n\n\n", into: &parser)
        #expect(first == [])
        #expect(parser.lastEventID == "5")
        #expect(try parser.feed(Array("data: b\n\n".utf8)) == [ServerSentEvent(data: "b", id: "5")])
    }

    @Test("unknown fields and wrongly cased names are ignored")
    func unknownFields() throws {
        #expect(try events("foo: bar\nData: x\nDATA: y\nEvent: e\ndata: z\n\n") == [ServerSentEvent(data: "z")])
        #expect(try events("foo: bar\n\n") == [])
    }

    // MARK: id and retry

    @Test("the last event ID persists across events, an empty id clears it, a NUL is ignored")
    func ids() throws {
        let stream = "id: 1\ndata: a\n\ndata: b\n\nid: 2\0x\ndata: c\n\nid:\ndata: d\n\nid: 3\n\n"
        var parser = ServerSentEventParser()
        let result = try feedAll(stream, into: &parser)
        #expect(
            result == [
                ServerSentEvent(data: "a", id: "1"),
                ServerSentEvent(data: "b", id: "1"),
                ServerSentEvent(data: "c", id: "1"),
                ServerSentEvent(data: "d"),
            ])
        #expect(parser.lastEventID == "3")
        #expect(try events(stream) == result)
    }

    @Test("a parser can start from the last event ID of an earlier connection")
    func initialLastEventID() throws {
        var parser = ServerSentEventParser(lastEventID: "41")
        #expect(parser.lastEventID == "41")
        #expect(try parser.feed(Array("data: x\n\n".utf8)) == [ServerSentEvent(data: "x", id: "41")])
        #expect(ServerSentEventParser(lastEventID: "").lastEventID == nil)
    }

    @Test("retry is a whole number of milliseconds, reported with the next event")
    func retry() throws {
        var parser = ServerSentEventParser()
        let result = try feedAll("retry: 1500\ndata: a\n\ndata: b\n\nretry: 250\n\ndata: c\n\n", into: &parser)
        #expect(
            result == [
                ServerSentEvent(data: "a", retry: .milliseconds(1500)),
                ServerSentEvent(data: "b"),
                ServerSentEvent(data: "c", retry: .milliseconds(250)),
            ])
        #expect(parser.reconnectionTime == .milliseconds(250))
        #expect(try events("retry:0\ndata: z\n\n") == [ServerSentEvent(data: "z", retry: .zero)])
        #expect(
            try events("retry: 9223372036854775807\ndata: z\n\n") == [
                ServerSentEvent(data: "z", retry: .milliseconds(Int.max))
            ])
    }

    @Test(
        "retry values that are not all ASCII digits are ignored",
        arguments: [
            "retry\n", "retry:\n", "retry: 1.5\n", "retry: -1\n", "retry: +1\n", "retry: 10ms\n",
            "retry:  100\n", "retry: 100 \n", "retry: ١٢\n", "retry: 99999999999999999999999\n",
        ])
    func invalidRetry(_ line: String) throws {
        var parser = ServerSentEventParser()
        #expect(try feedAll(line + "data: x\n\n", into: &parser) == [ServerSentEvent(data: "x")])
        #expect(parser.reconnectionTime == nil)
    }

    // MARK: Bytes, lines and chunks

    @Test("LF, CRLF and CR line endings give the same events, also mixed")
    func lineEndings() throws {
        let body = ["event: e", "data: 1", "data: 2", "id: 9", "", "data: 3", ""]
        let expected = [ServerSentEvent(event: "e", data: "1\n2", id: "9"), ServerSentEvent(data: "3", id: "9")]
        for ending in ["\n", "\r\n", "\r"] {
            #expect(try events(body.joined(separator: ending) + ending) == expected)
        }
        #expect(try events("event: e\rdata: 1\r\ndata: 2\nid: 9\r\r\ndata: 3\n\r") == expected)
    }

    @Test("a CR ending one chunk and an LF starting the next are one line ending")
    func splitCRLF() throws {
        var parser = ServerSentEventParser()
        #expect(try parser.feed(Array("data: a\r".utf8)) == [])
        #expect(try parser.feed(Array("\ndata: b\r".utf8)) == [])
        #expect(try parser.feed([UInt8]()) == [])
        #expect(try parser.feed(Array("\n\r".utf8)) == [ServerSentEvent(data: "a\nb")])
        #expect(try parser.feed(Array("\ndata: c\r".utf8)) == [])
        #expect(try parser.feed(Array("\r".utf8)) == [ServerSentEvent(data: "c")])
    }

    @Test("CR CR and LF CR are two line endings")
    func twoEndings() throws {
        #expect(
            try events("data: a\r\rdata: b\n\rdata: c\r\n\r\n") == [
                ServerSentEvent(data: "a"), ServerSentEvent(data: "b"), ServerSentEvent(data: "c"),
            ])
    }

    @Test("one leading byte order mark is stripped, once, and only at the start of the stream")
    func byteOrderMark() throws {
        #expect(try events("\u{FEFF}data: a\n\n") == [ServerSentEvent(data: "a")])
        #expect(try events("\u{FEFF}\n\u{FEFF}data: a\n\n") == [])
        #expect(try events("\u{FEFF}\u{FEFF}data: a\n\n") == [])
        #expect(try events("data: \u{FEFF}a\n\n") == [ServerSentEvent(data: "\u{FEFF}a")])
        #expect(try events("data: a\n\n\u{FEFF}data: b\n\n") == [ServerSentEvent(data: "a")])
    }

    @Test("UTF-8 is decoded across chunk boundaries; invalid bytes become U+FFFD")
    func utf8() throws {
        #expect(
            try events("event: caf\u{E9}\ndata: 😀 \u{4E2D}\n\n") == [
                ServerSentEvent(event: "caf\u{E9}", data: "😀 \u{4E2D}")
            ])
        let invalid: [UInt8] =
            Array("data: a".utf8) + [0xFF, 0xF0, 0x9F] + Array("\nid: \u{E9}".utf8) + [0xC3]
            + Array("\n\n".utf8)
        #expect(try events(invalid) == [ServerSentEvent(data: "a\u{FFFD}\u{FFFD}", id: "\u{E9}\u{FFFD}")])
    }

    @Test("an event without its blank line at the end of the stream is discarded")
    func incompleteEventDiscarded() throws {
        #expect(try events("data: a\n\ndata: b\n") == [ServerSentEvent(data: "a")])
        #expect(try events("data: a\n\ndata: b") == [ServerSentEvent(data: "a")])
        var parser = ServerSentEventParser()
        #expect(try feedAll("id: 1\ndata: a\n\nretry: 300\nevent: x\ndata: lost", into: &parser).count == 1)
        parser.finish()
        #expect(parser.lastEventID == "1")
        #expect(parser.reconnectionTime == .milliseconds(300))
    }

    @Test("after finish the parser reads a new stream: BOM stripped again, nothing carried over")
    func reconnection() throws {
        var parser = ServerSentEventParser()
        _ = try feedAll("\u{FEFF}id: 3\ndata: a\n\nevent: x\ndata: half\r", into: &parser)
        parser.finish()
        #expect(try feedAll("\ndata: b\n\n", into: &parser) == [ServerSentEvent(data: "b", id: "3")])
        parser.finish()
        #expect(try feedAll("\u{FEFF}data: c\n\n", into: &parser) == [ServerSentEvent(data: "c", id: "3")])
    }

    @Test("any Collection of bytes is accepted: Data, ArraySlice, a byte view")
    func collections() throws {
        var parser = ServerSentEventParser()
        var result = try parser.feed(Data("data: a\n\nda".utf8))
        result += try parser.feed(Array("ta: b\n\n".utf8)[...])
        result += try parser.feed("data: c\n\n".utf8)
        #expect(result == [ServerSentEvent(data: "a"), ServerSentEvent(data: "b"), ServerSentEvent(data: "c")])
    }

    // MARK: Memory bounds

    @Test("a line longer than maxLineLength throws lineTooLong; earlier events are delivered")
    func lineTooLong() throws {
        let stream = Array("data: a\n\ndata: 123456789\n\n".utf8)
        for size in Self.chunkSizes {
            var parser = ServerSentEventParser(maxLineLength: 14)
            var delivered: [ServerSentEvent] = []
            #expect(throws: StreamParsingError.lineTooLong(limit: 14)) {
                for chunk in Self.cut(stream, size: size) {
                    try parser.feed(chunk, into: &delivered)
                }
            }
            #expect(delivered == [ServerSentEvent(data: "a")])
            #expect(throws: StreamParsingError.lineTooLong(limit: 14)) { try parser.feed(Array("\n".utf8)) }
            parser.finish()
            #expect(try parser.feed(Array("data: ok\n\n".utf8)) == [ServerSentEvent(data: "ok")])
        }
    }

    @Test("a line exactly maxLineLength bytes long is accepted; its ending does not count")
    func lineAtLimit() throws {
        var parser = ServerSentEventParser(maxLineLength: 15)
        #expect(try parser.feed(Array("data: 123456789\r\n\r\n".utf8)) == [ServerSentEvent(data: "123456789")])
    }

    @Test("a line without an ending is refused as soon as it passes the bound")
    func unterminatedLongLine() throws {
        var parser = ServerSentEventParser(maxLineLength: 1024)
        let block = [UInt8](repeating: UInt8(ascii: "x"), count: 1000)
        #expect(try parser.feed(Array("data: ".utf8)) == [])
        #expect(throws: StreamParsingError.lineTooLong(limit: 1024)) {
            for _ in 0..<10_000 { _ = try parser.feed(block) }
        }
        #expect(parser.maxLineLength == 1024)
        #expect(ServerSentEventParser().maxLineLength == 1 << 20)
    }

    @Test("an event whose data passes maxEventLength throws eventTooLarge")
    func eventTooLarge() throws {
        var parser = ServerSentEventParser(maxEventLength: 8)
        #expect(try parser.feed(Array("data: 1234\ndata: 123\n\n".utf8)) == [ServerSentEvent(data: "1234\n123")])
        var delivered: [ServerSentEvent] = []
        #expect(throws: StreamParsingError.eventTooLarge(limit: 8)) {
            try parser.feed(Array("data: a\n\ndata: 1234\ndata: 1234\n\n".utf8), into: &delivered)
        }
        #expect(delivered == [ServerSentEvent(data: "a")])
        #expect(ServerSentEventParser().maxEventLength == 16 << 20)
    }

    @Test("the errors become NetworkError.invalidResponse naming the limit")
    func networkError() {
        guard case .invalidResponse(let reason, _) = StreamParsingError.lineTooLong(limit: 1 << 20).networkError else {
            Issue.record("not invalidResponse")
            return
        }
        #expect(reason.contains("1048576"))
        guard case .invalidResponse(let other, _) = StreamParsingError.eventTooLarge(limit: 7).networkError else {
            Issue.record("not invalidResponse")
            return
        }
        #expect(other.contains("7"))
    }

    // MARK: The fault server's script

    @Test("the fault server's /sse/mixed script gives the events its docstring lists")
    func faultServerScript() throws {
        var parser = ServerSentEventParser()
        var result: [ServerSentEvent] = []
        for piece in Self.mixedScript { try parser.feed(piece, into: &result) }
        parser.finish()
        let expected = [
            ServerSentEvent(data: "first"),
            ServerSentEvent(event: "greeting", data: "hello\n world"),
            ServerSentEvent(data: "no-space", id: "7"),
            ServerSentEvent(data: "", id: "7", retry: .milliseconds(1500)),
            ServerSentEvent(event: "update", data: #"{"n":1}"# + "\n" + #"{"n":2}"#, id: "8"),
            ServerSentEvent(data: "type reset", id: "8"),
            ServerSentEvent(data: "last"),
        ]
        #expect(result == expected)
        #expect(parser.lastEventID == nil)
        #expect(parser.reconnectionTime == .milliseconds(1500))
        #expect(try events(Self.mixedScript.flatMap { $0 }) == expected)
    }

    @Test("random cuts give the same events as the whole stream")
    func randomCuts() throws {
        let stream = Self.mixedScript.flatMap { $0 }
        var whole = ServerSentEventParser()
        let expected = try whole.feed(stream)
        var generator = SplitMix64(seed: 18)
        for _ in 0..<200 {
            var parser = ServerSentEventParser()
            var result: [ServerSentEvent] = []
            var start = 0
            while start < stream.count {
                let end = min(stream.count, start + Int.random(in: 0...12, using: &generator))
                try parser.feed(stream[start..<end], into: &result)
                start = end
            }
            #expect(result == expected)
        }
    }

    // MARK: Helpers

    /// The body of the fault server's `/sse/mixed`, in the pieces it writes.
    static let mixedScript: [[UInt8]] = [
        [0xEF, 0xBB, 0xBF] + Array(": NetKit /sse/mixed, a comment after the BOM\n".utf8),
        Array("data: first\n\n".utf8),
        Array("event: greeting\r\ndata: hello\r".utf8),
        Array("\ndata:  world\r\n\r\n".utf8),
        Array("id: 7\rdata:no-space\r\r".utf8),
        Array("retry: 1500\n\n".utf8),
        Array("data\n\n".utf8),
        Array(#"event: update\#r\#ndata: {"n":1}\#r\#n: a comment inside an event\#r\#n"#.utf8)
            + Array(#"data: {"n":2}\#r\#nid: 8\#r\#n\#r\#n"#.utf8),
        Array("event\nid: bad\0id\ndata: type reset\n\n".utf8),
        Array("retry: 1.5\nretry: 2000ms\nunknown: ignored\nData: wrong case\n".utf8)
            + Array("data: last\rid\r\r".utf8),
        Array("data: discarded, no blank line follows\n".utf8),
    ]

    /// The chunk sizes every stream is fed in; `nil` is the whole stream at once.
    static let chunkSizes: [Int?] = [nil, 1, 2, 7]

    /// `bytes` cut into chunks of `size` bytes (one chunk when `size` is `nil`).
    static func cut(_ bytes: [UInt8], size: Int?) -> [ArraySlice<UInt8>] {
        guard let size else { return [bytes[...]] }
        return stride(from: 0, to: bytes.count, by: size).map { bytes[$0..<min(bytes.count, $0 + size)] }
    }

    /// The events of a whole stream (ended with `finish()`), after checking that every chunking
    /// gives the same.
    func events(_ text: String) throws -> [ServerSentEvent] {
        try events(Array(text.utf8))
    }

    /// The events of a whole stream of bytes, after checking that every chunking gives the same.
    func events(_ bytes: [UInt8]) throws -> [ServerSentEvent] {
        var results: [[ServerSentEvent]] = []
        for size in Self.chunkSizes {
            var parser = ServerSentEventParser()
            var result: [ServerSentEvent] = []
            for chunk in Self.cut(bytes, size: size) {
                try parser.feed(chunk, into: &result)
            }
            parser.finish()
            results.append(result)
        }
        for (size, result) in zip(Self.chunkSizes, results) {
            #expect(result == results[0], "chunks of \(size.map(String.init) ?? "all") bytes")
        }
        return results[0]
    }

    /// Feeds `text` whole to `parser` and returns the events.
    func feedAll(_ text: String, into parser: inout ServerSentEventParser) throws -> [ServerSentEvent] {
        try parser.feed(Array(text.utf8))
    }
}
