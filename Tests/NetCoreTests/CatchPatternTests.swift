import Foundation
import NetCore
import NetTestSupport
import Testing

/// A user's typed `catch` clause that binds a case's `Response`, in a concrete (non-generic)
/// type: the shape Swift 6.3's ownership verifier crashed on when `NetworkError`'s
/// Response-carrying cases were `indirect`, or when `Response` kept its request in a class box.
/// This file compiling is half of the test.
@Suite("Catch patterns on NetworkError")
struct CatchPatternTests {
    struct Client: Sendable {
        let provider: Provider<TestTarget>

        func status(streamed: Bool) async throws -> Int {
            let cleanup = FileManager.default
            defer { _ = cleanup.temporaryDirectory }
            let target = TestTarget(sampleResponse: SampleResponse(statusCode: 404))
            if streamed {
                let stream = provider.stream(target)
                let head: Response
                do {
                    head = try await stream.head
                } catch .unacceptableStatus(let refused) {
                    return refused.statusCode
                }
                return head.statusCode
            }
            let response: Response
            do {
                response = try await provider.request(target)
            } catch .unacceptableStatus(let refused) {
                response = refused
            }
            return response.statusCode
        }
    }

    @Test("A catch clause binding the refused response of a 404 recovers it, whole and streamed")
    func catchClauseBindsTheRefusedResponse() async throws {
        let client = Client(provider: Provider<TestTarget>(transport: StubTransport()))
        #expect(try await client.status(streamed: false) == 404)
        #expect(try await client.status(streamed: true) == 404)
    }
}
