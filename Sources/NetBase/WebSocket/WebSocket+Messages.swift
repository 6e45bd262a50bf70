extension WebSocket {
    /// The messages a ``WebSocket`` receives: an `AsyncSequence` that ends after the close
    /// handshake and throws a ``NetworkError`` when the connection fails.
    ///
    /// Read it from one task at a time. Cancelling the reading task ends that iteration with
    /// ``NetworkError/cancelled``; the connection stays open.
    public struct Messages: AsyncSequence, Sendable {
        /// The element type.
        public typealias Element = Message
        let source: any WebSocketMessageSource

        /// An iterator over the messages.
        public func makeAsyncIterator() -> Iterator {
            Iterator(source: source)
        }

        /// Reads the next message, waiting for it.
        public struct Iterator: AsyncIteratorProtocol {
            let source: any WebSocketMessageSource

            /// The next message, or `nil` after the close.
            /// - Throws: ``NetworkError``.
            public mutating func next() async throws -> Message? {
                try await source.next()
            }
        }
    }
}
