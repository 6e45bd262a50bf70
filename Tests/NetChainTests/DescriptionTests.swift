import Foundation
import NetChain
import NetCore
import NetTestSupport
import Testing

/// A chain, its responses and its error read as short lines that never show a target's values.
@Suite("Chain descriptions")
struct DescriptionTests {
    private let provider = Provider<API>(
        transport: stub { request in
            Response(
                statusCode: request.url.path.hasSuffix("broken") ? 500 : 200, data: Data("{}".utf8), request: request,
                metrics: ResponseMetrics(startDate: Date(), duration: .milliseconds(20)))
        })

    @Test("a chain names its first target by case and counts its steps")
    func chain() {
        let chain = Chain(provider, .register(name: "s3cr3t")).then { _ in .broken }.then { _ in nil }
        #expect(chain.description == "Chain: API.register, then 2 steps")
        #expect(Chain(provider, .broken).then { _ in nil }.description == "Chain: API.broken, then 1 step")
    }

    @Test("the responses of a chain print as lines, not as dumps")
    func responses() async throws {
        let responses = try await Chain(provider, .register(name: "ada")).then { _ in .profile(id: "u-42") }.run()
        #expect(
            "\(responses)"
                == "[200 POST https://accounts.test/register (2 bytes, 20 ms), 200 GET https://accounts.test/users/u-42 (2 bytes, 20 ms)]")
    }

    @Test("a chain error names the failing target without the values it carries")
    func error() async {
        let chain = Chain(provider, .register(name: "s3cr3t")).then { _ in .broken }
        let error = await #expect(throws: ChainError.self) { try await chain.run() }
        #expect(error?.target == "API.broken")
        #expect(error?.description.hasPrefix("Chain stopped at step 1: the request for API.broken failed after 1 successful response(s): Status 500") == true)
        #expect(error?.description.contains("s3cr3t") == false)

        let first = await #expect(throws: ChainError.self) {
            try await Chain(Provider<API>(transport: stub { _ in throw NetworkError.timedOut }), .register(name: "s3cr3t")).run()
        }
        #expect(first?.target == "API.register")
        #expect(first?.description.contains("s3cr3t") == false)
    }
}
