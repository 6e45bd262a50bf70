// Runs the code of the article "Testing your API client" (TestingYourAPIClientArticle.swift).
import Foundation
import NetCore
import Testing

@Suite("Article: Testing your API client")
struct TestingYourAPIClientTests {
    @Test func stubsAnswerFromSampleResponsesOrTheirBehaviour() async throws {
        let providers = TestingYourAPIClientArticle.stubbedProviders()
        let posts = try await providers[0].request(.posts(page: 1))
        #expect(posts.source == .stub)
        #expect(posts.statusCode == 200)
        let error = await #expect(throws: NetworkError.self) { try await providers[0].request(.attach(postID: 1, image: URL(fileURLWithPath: #filePath))) }
        #expect(error?.code == .timedOut)
        #expect(try await providers[1].request(.create(NewPost(title: "a", body: "b"))).statusCode == 201)
        let unavailable = await #expect(throws: NetworkError.self) { try await providers[2].request(.posts(page: 1)) }
        #expect(unavailable?.statusCode == 503)
    }

    @Test func theRecorderKeepsWhatWasSent() async throws {
        let provider = Provider<Blog>(transport: recorder)
        _ = try await provider.request(.posts(page: 2))
        let all = await sent.all
        #expect(all.last?.url.query == "page=2")
    }
}
