/// Parses a `text/event-stream` body that arrives in chunks into ``ServerSentEvent`` values:
/// the engine behind a stream's `events` view.
///
/// The bytes are decoded as UTF-8 (invalid sequences become U+FFFD), one leading byte order mark
/// is dropped, lines end at CR LF, LF or CR (a CR LF pair split between chunks is one ending), and
/// the lines are interpreted by the WHATWG EventSource rules (see
/// ``ServerSentEventInterpreter``). How the body is cut into chunks never changes the events.
/// At the end of the stream an event without its closing blank line is discarded.
///
/// Memory is bounded: a line longer than `maxLineLength` bytes (1 MiB by default) and an event
/// whose data passes `maxEventLength` bytes (16 MiB by default) make ``feed(_:into:)`` throw a
/// ``StreamParsingError``, which a stream reader reports as its
/// ``StreamParsingError/networkError`` (``NetworkError/invalidResponse(reason:underlying:)``).
package struct ServerSentEventParser: Sendable {
    private var framer: LineFramer
    private var interpreter: ServerSentEventInterpreter
    private var failure: StreamParsingError?

    /// Creates a parser.
    ///
    /// - Parameters:
    ///   - maxLineLength: The longest line accepted, in bytes, its ending not counted.
    ///   - maxEventLength: The most data one event may collect, in UTF-8 bytes.
    ///   - lastEventID: The last event ID to start from (for a parser that reads a reconnection).
    package init(
        maxLineLength: Int = LineFramer.defaultMaxLineLength,
        maxEventLength: Int = ServerSentEventInterpreter.defaultMaxEventLength,
        lastEventID: String? = nil
    ) {
        framer = LineFramer(maxLineLength: maxLineLength, stripsByteOrderMark: true)
        interpreter = ServerSentEventInterpreter(maxEventLength: maxEventLength, lastEventID: lastEventID)
    }

    /// The stream's last event ID, or `nil` when none was set or an empty `id` field cleared it:
    /// the `Last-Event-ID` to send when reconnecting.
    package var lastEventID: String? { interpreter.lastEventID }

    /// The latest reconnection time the server set with a `retry` field, or `nil`.
    package var reconnectionTime: Duration? { interpreter.reconnectionTime }

    /// The longest line accepted, in bytes.
    package var maxLineLength: Int { framer.maxLineLength }

    /// The most data one event may collect, in UTF-8 bytes.
    package var maxEventLength: Int { interpreter.maxEventLength }

    /// Parses the next chunk of the stream, appending each event it dispatches to `events`.
    ///
    /// - Throws: ``StreamParsingError/lineTooLong(limit:)`` or
    ///   ``StreamParsingError/eventTooLarge(limit:)``. The events dispatched before the error are
    ///   in `events` already, whatever the chunking. After an error every further call throws it
    ///   again, until ``finish()``.
    package mutating func feed(
        _ chunk: some Collection<UInt8>,
        into events: inout [ServerSentEvent]
    ) throws(StreamParsingError) {
        if let failure { throw failure }
        var index = chunk.startIndex
        do {
            while let line = try framer.nextLine(in: chunk, from: &index) {
                if let event = try interpreter.interpret(line: line) { events.append(event) }
            }
        } catch {
            failure = error
            throw error
        }
    }

    /// Parses the next chunk of the stream and returns the events it dispatches.
    ///
    /// - Throws: As ``feed(_:into:)``; the events of this chunk before the error are then lost,
    ///   so a reader that must deliver them uses ``feed(_:into:)``.
    package mutating func feed(_ chunk: some Collection<UInt8>) throws(StreamParsingError) -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        try feed(chunk, into: &events)
        return events
    }

    /// Ends the stream: an unfinished line and an event without its closing blank line are
    /// discarded, and a previous error is forgotten. ``lastEventID`` and ``reconnectionTime``
    /// stay, so the same parser can read the stream of a reconnection.
    package mutating func finish() {
        _ = framer.finish()
        interpreter.discardPendingEvent()
        failure = nil
    }
}
