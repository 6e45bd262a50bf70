import Foundation

extension WebSocket {
    /// One whole WebSocket message (RFC 6455, section 5.6), reassembled from its fragments.
    ///
    /// ```swift
    /// try await socket.send(.text("hello"))
    /// for try await message in socket.messages {
    ///     if case .text(let text) = message { print(text) }
    /// }
    /// ```
    public enum Message: Sendable, Equatable, Hashable {
        /// A text message: valid UTF-8 on the wire (the connection fails with 1007 otherwise).
        case text(String)
        /// A binary message.
        case binary(Data)

        /// The payload's size in bytes on the wire (UTF-8 for text).
        public var byteCount: Int {
            switch self {
            case .text(let text): text.utf8.count
            case .binary(let data): data.count
            }
        }
    }
}
