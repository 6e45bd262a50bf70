import Foundation
import HTTPBinAPI
import NetCore
import Testing

/// The API on stubs: each target answers its `sampleResponse`, and every plugin would run as usual.
@Suite struct HTTPBinTests {
    let provider = Provider<HTTPBin>(transport: StubTransport(behavior: .immediate))

    @Test func postSendsJSONAndDecodesTheEcho() async throws {
        let payload = Payload(name: "ada", count: 3)
        let response = try await provider.request(.post(payload))
        #expect(response.request.method == .post)
        #expect(response.request.url.path == "/post")
        #expect(try response.decode(Payload.self, atKeyPath: "json") == payload)
    }

    @Test func getEncodesItsQuery() async throws {
        let response = try await provider.request(.get(["q": "swift", "page": 2]))
        #expect(response.request.url.query == "q=swift&page=2")
    }

    @Test func anErrorStatusFailsWithTheResponse() async throws {
        await #expect(throws: NetworkError.self) { try await provider.request(.status(503)) }
        do {
            _ = try await provider.request(.status(404))
        } catch {
            #expect(error.statusCode == 404)
        }
    }
}
