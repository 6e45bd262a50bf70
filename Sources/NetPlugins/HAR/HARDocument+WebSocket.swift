import Foundation
import NetCore

/// A WebSocket's messages in a HAR entry, as Chrome's developer tools export them:
/// `_webSocketMessages: [{type: "send" | "receive", time: <seconds since 1970, fractional>,
/// opcode: 1 | 2, data: <text, or base64 for binary>}]`.
extension HARDocument {
    struct WebSocketMessage: Codable {
        var type: String
        var time: Double
        var opcode: Int
        var data: String

        init(_ captured: CapturedWebSocketMessage) {
            type = captured.direction.rawValue
            time = captured.date.timeIntervalSince1970
            switch captured.message {
            case .text(let text): (opcode, data) = (1, text)
            case .binary(let bytes): (opcode, data) = (2, bytes.base64EncodedString())
            }
        }
    }
}

extension HARDocument.WebSocketMessage {
    /// The message this entry holds; `nil` for an opcode other than text (1) or binary (2).
    /// - Throws: `HARDocument.InvalidWebSocketData` for binary data that is not base64.
    func decoded() throws -> (direction: CapturedWebSocketMessage.Direction, message: WebSocket.Message)? {
        let direction: CapturedWebSocketMessage.Direction = type.lowercased() == "send" ? .sent : .received
        switch opcode {
        case 1: return (direction, .text(data))
        case 2:
            guard let bytes = Data(base64Encoded: data, options: .ignoreUnknownCharacters) else {
                throw HARDocument.InvalidWebSocketData()
            }
            return (direction, .binary(bytes))
        default: return nil
        }
    }
}

extension HARDocument {
    /// A binary WebSocket message whose `data` is not base64.
    struct InvalidWebSocketData: Error {}
}
