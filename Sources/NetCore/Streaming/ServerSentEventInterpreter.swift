/// Interprets the lines of a `text/event-stream` body, one at a time, by the WHATWG EventSource
/// rules ("interpreting an event stream"), and assembles the events they dispatch.
///
/// - A blank line dispatches the event being built, if its data buffer is not empty; either way
///   the data and event-type buffers are then cleared.
/// - A line starting with `:` is a comment and is ignored.
/// - Otherwise the field name runs to the first `:` and the value follows it, without one leading
///   space; a line without `:` is a field name with an empty value.
/// - `data` appends the value and a line feed to the data buffer (the last line feed is removed
///   at dispatch); `event` sets the event type (empty means `"message"`); `id` sets the last
///   event ID, which persists across events, unless the value contains U+0000 NULL; `retry`
///   sets the reconnection time in milliseconds when the value is all ASCII digits (and fits in
///   an `Int`; a longer number is ignored). Field names are case-sensitive, and any other field
///   is ignored.
/// - An empty `id` clears the last event ID (``lastEventID`` is then `nil`, not `""`).
package struct ServerSentEventInterpreter: Sendable {
    /// The default bound on one event's data: 16 MiB.
    package static let defaultMaxEventLength = 16 << 20

    /// The most data, in UTF-8 bytes, one event may collect before it is dispatched.
    package let maxEventLength: Int

    /// The last event ID of the stream, or `nil` when none was set or an empty `id` cleared it.
    ///
    /// A reconnecting client sends it as `Last-Event-ID`.
    package private(set) var lastEventID: String?

    /// The latest reconnection time the server set with `retry`, or `nil` if it never did.
    package private(set) var reconnectionTime: Duration?

    /// The event type buffer.
    private var eventType = ""
    /// The data buffer: each `data` value followed by a line feed.
    private var data = ""
    /// A `retry` received since the previous dispatched event, reported with the next one.
    private var pendingRetry: Duration?

    /// Creates an interpreter for a stream.
    ///
    /// - Parameters:
    ///   - maxEventLength: The most data one event may collect, in UTF-8 bytes (16 MiB by
    ///     default).
    ///   - lastEventID: The last event ID to start from, such as the one an earlier connection
    ///     of the same event source ended with.
    package init(maxEventLength: Int = defaultMaxEventLength, lastEventID: String? = nil) {
        self.maxEventLength = max(0, maxEventLength)
        self.lastEventID = lastEventID?.isEmpty == true ? nil : lastEventID
    }

    /// Interprets one line (its bytes, without the line ending) and returns the event it
    /// dispatches, if any.
    ///
    /// - Throws: ``StreamParsingError/eventTooLarge(limit:)`` when a `data` line would make the
    ///   event's data longer than ``maxEventLength``.
    package mutating func interpret(line: [UInt8]) throws(StreamParsingError) -> ServerSentEvent? {
        guard let first = line.first else { return dispatch() }
        if first == Self.colon { return nil }
        if let colon = line.firstIndex(of: Self.colon) {
            var value = line[(colon + 1)...]
            if value.first == Self.space { value = value.dropFirst() }
            try apply(field: line[..<colon], value: value)
        } else {
            try apply(field: line[...], value: [])
        }
        return nil
    }

    /// Forgets the event being built (data and type), as at the end of a stream; the last event
    /// ID and the reconnection time stay.
    package mutating func discardPendingEvent() {
        data = ""
        eventType = ""
    }

    private mutating func apply(field name: ArraySlice<UInt8>, value: ArraySlice<UInt8>) throws(StreamParsingError) {
        if name.elementsEqual("data".utf8) {
            let text = String(decoding: value, as: UTF8.self)
            guard text.utf8.count <= maxEventLength - data.utf8.count else {
                throw .eventTooLarge(limit: maxEventLength)
            }
            data += text
            data += "\n"
        } else if name.elementsEqual("event".utf8) {
            eventType = String(decoding: value, as: UTF8.self)
        } else if name.elementsEqual("id".utf8) {
            guard !value.contains(0) else { return }
            lastEventID = value.isEmpty ? nil : String(decoding: value, as: UTF8.self)
        } else if name.elementsEqual("retry".utf8) {
            guard !value.isEmpty, value.allSatisfy(Self.isASCIIDigit),
                let milliseconds = Int(String(decoding: value, as: UTF8.self))
            else { return }
            reconnectionTime = .milliseconds(milliseconds)
            pendingRetry = reconnectionTime
        }
    }

    private mutating func dispatch() -> ServerSentEvent? {
        defer { eventType = "" }
        guard !data.isEmpty else { return nil }
        data.unicodeScalars.removeLast()
        let event = ServerSentEvent(
            event: eventType.isEmpty ? "message" : eventType,
            data: data,
            id: lastEventID,
            retry: pendingRetry
        )
        data = ""
        pendingRetry = nil
        return event
    }

    private static let colon = UInt8(ascii: ":")
    private static let space = UInt8(ascii: " ")

    private static func isASCIIDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }
}
