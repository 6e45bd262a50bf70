import NetCore
import Testing

/// Runs the article "WebSocket"'s test example.
@Suite("WebSocket article")
struct WebSocketArticleTests {
    @Test("The article's stubbed echo returns the message it sent")
    func stubbedEcho() async throws {
        #expect(try await echoesOneMessage() == .text("ping"))
    }

    @Test("The article's captured conversation replays its echo from the HAR, then closes")
    func capturedConversationReplays() async throws {
        #expect(try await replaysACapturedConversation() == [.text(#"{"subscribe":"EURUSD"}"#)])
    }
}
