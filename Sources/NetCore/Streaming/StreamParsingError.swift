/// Why the line splitter or the server-sent-event parser gave up on a stream.
///
/// Both parsers *throw* these (typed throws) rather than returning them; after throwing, a parser
/// throws the same error for any further input. A stream reader ends the stream with
/// ``networkError``, a ``NetworkError/invalidResponse(reason:underlying:)``.
package enum StreamParsingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A line (its line ending not counted) passed `limit` bytes before it ended.
    case lineTooLong(limit: Int)
    /// The `data` of one server-sent event passed `limit` bytes (UTF-8) before a blank line
    /// dispatched it.
    case eventTooLarge(limit: Int)

    /// What went wrong, with the limit that was passed.
    package var description: String {
        switch self {
        case .lineTooLong(let limit): "a line of the stream is longer than \(limit) bytes"
        case .eventTooLarge(let limit): "a server-sent event's data is longer than \(limit) bytes"
        }
    }

    /// The error a stream reader reports: ``NetworkError/invalidResponse(reason:underlying:)`` with
    /// ``description`` as the reason.
    package var networkError: NetworkError { .invalidResponse(reason: description) }
}
