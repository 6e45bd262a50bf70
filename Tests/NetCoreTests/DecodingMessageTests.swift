import Foundation
import NetCore
import NetTestSupport
import Testing

@Suite("Decoding error messages")
struct DecodingMessageTests {
    struct User: Decodable { let id: Int }

    @Test("A key-path failure names the full path from the body's top and ends with one period")
    func keyPathMessage() throws {
        let response = Response(
            statusCode: 200, data: Data(#"{"data":{"user":{"id":"x"}}}"#.utf8),
            request: Request(url: URL(string: "https://api.example.com/u")!, target: TestTarget()))
        do {
            _ = try response.decode(User.self, atKeyPath: "data.user")
            Issue.record("decoded a string as Int")
        } catch {
            #expect(error.description.contains("data.user.id"), "\(error)")
            #expect(!error.description.contains("top level"))
            #expect(!error.description.contains(".."))
        }
    }
}
