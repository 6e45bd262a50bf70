/// One event of a `text/event-stream` body, as the WHATWG EventSource rules dispatch it.
///
/// A stream's `events` view yields one value per dispatched event: a block of fields ended by a
/// blank line that carried at least one `data` field. Blocks without `data` dispatch nothing.
public struct ServerSentEvent: Sendable, Hashable {
    /// The event type from the `event` field; `"message"` when the block had none, or an empty one.
    public var event: String

    /// The event's data: the values of the block's `data` fields joined with `"\n"`.
    ///
    /// A `data` field with no value still counts: a block holding only `data` gives `""`.
    public var data: String

    /// The last event ID when the event was dispatched, or `nil` when there is none.
    ///
    /// IDs persist: an event without an `id` field carries the ID set by an earlier event of the
    /// stream. An empty `id` field clears it (the following events have `nil`); an `id` value
    /// containing U+0000 NULL is ignored.
    public var id: String?

    /// The reconnection time the server asked for with `retry` (a whole number of milliseconds)
    /// since the previous dispatched event, or `nil` if it sent none.
    ///
    /// A `retry` field in a block without `data` (which dispatches nothing) is reported with the
    /// next event that is dispatched.
    public var retry: Duration?

    /// Creates an event.
    ///
    /// - Parameters:
    ///   - event: The event type; `"message"` unless the server named another.
    ///   - data: The event's data, lines joined with `"\n"`.
    ///   - id: The last event ID at dispatch, if any.
    ///   - retry: The reconnection time the server asked for with this event, if any.
    package init(event: String = "message", data: String, id: String? = nil, retry: Duration? = nil) {
        self.event = event
        self.data = data
        self.id = id
        self.retry = retry
    }
}
