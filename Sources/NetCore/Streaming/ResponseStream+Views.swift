import NetBase
import Foundation

extension ResponseStream {
    /// The body as UTF-8 lines (ended by LF, CRLF or CR; a last line without an ending counts).
    /// A line longer than 1 MiB fails with ``NetworkError/invalidResponse(reason:underlying:)``.
    public var lines: some AsyncSequence<String, any Error> & Sendable { Lines(stream: self) }

    /// The body as Server-Sent Events, parsed by the WHATWG EventSource rules (comments skipped,
    /// multi-line `data` joined with newlines, an event dispatched at each blank line).
    public var events: some AsyncSequence<ServerSentEvent, any Error> & Sendable { Events(stream: self) }

    /// The lines of a ``ResponseStream``.
    package struct Lines: AsyncSequence, Sendable {
        package typealias Element = String
        package typealias Failure = any Error
        let stream: ResponseStream

        package func makeAsyncIterator() -> Iterator { Iterator(chunks: stream.makeAsyncIterator()) }

        /// Iterates lines.
        package struct Iterator: AsyncIteratorProtocol {
            var chunks: ResponseStream.Iterator
            var splitter = LineSplitter()
            var ready: [String] = []
            var done = false

            /// The next line, or `nil` at the end of the body.
            package mutating func next() async throws -> String? {
                while ready.isEmpty {
                    guard !done else { return nil }
                    if let chunk = try await chunks.next() {
                        do {
                            try splitter.feed(chunk, into: &ready)
                        } catch {
                            throw error.networkError
                        }
                    } else {
                        done = true
                        if let last = splitter.finish() { ready.append(last) }
                    }
                }
                return ready.removeFirst()
            }
        }
    }

    /// The Server-Sent Events of a ``ResponseStream``.
    package struct Events: AsyncSequence, Sendable {
        package typealias Element = ServerSentEvent
        package typealias Failure = any Error
        let stream: ResponseStream

        package func makeAsyncIterator() -> Iterator { Iterator(chunks: stream.makeAsyncIterator()) }

        /// Iterates events.
        package struct Iterator: AsyncIteratorProtocol {
            var chunks: ResponseStream.Iterator
            var parser = ServerSentEventParser()
            var ready: [ServerSentEvent] = []

            /// The next event, or `nil` at the end of the body (an unfinished event is dropped).
            package mutating func next() async throws -> ServerSentEvent? {
                while ready.isEmpty {
                    guard let chunk = try await chunks.next() else {
                        parser.finish()
                        return nil
                    }
                    do {
                        try parser.feed(chunk, into: &ready)
                    } catch {
                        if ready.isEmpty { throw error.networkError }
                    }
                }
                return ready.removeFirst()
            }
        }
    }
}
