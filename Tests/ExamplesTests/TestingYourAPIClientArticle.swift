// The code of the article "Testing your API client"
// (Sources/NetCore/NetCore.docc/TestingYourAPIClient.md), on the `Blog` API of
// DescribingAnAPIArticle.swift: ArticleTwinTests requires this file to open with the article's
// first block and to import nothing else. TestingYourAPIClientTests.swift runs it.
import Foundation
import NetCore
import NetPlugins  // ReplayTransport, below

extension Blog {
    var sampleResponse: SampleResponse {
        switch self {
        case .posts: .json(#"[{"id": 1, "title": "Hello"}]"#)
        case .create: SampleResponse(statusCode: 201)
        case .attach: .failure(.timedOut)
        case .export: SampleResponse(statusCode: 200, data: Data("id,title\n".utf8))
        }
    }
}

actor SentRequests {
    private(set) var all: [Request] = []
    func append(_ request: Request) { all.append(request) }
}

let sent = SentRequests()
let recorder = StubTransport(
    behavior: .custom { request in
        await sent.append(request)
        return Response(statusCode: 204, request: request)
    })

enum TestingYourAPIClientArticle {
    static func stubbedProviders() -> [Provider<Blog>] {
        let provider = Provider<Blog>(transport: StubTransport(behavior: .immediate))
        let slow = Provider<Blog>(transport: StubTransport(behavior: .delayed(.milliseconds(50))))
        let unavailable = Provider<Blog>(
            transport: StubTransport(
                behavior: .custom { request in
                    Response(statusCode: 503, request: request)
                }))
        return [provider, slow, unavailable]
    }

    static func replayingProvider() throws -> (recording: ReplayTransport, provider: Provider<Blog>) {
        let fixture = URL(fileURLWithPath: "Tests/Fixtures/blog.har")

        // Once, against the real server: requests the file lacks are sent and appended, redacted.
        let recording = try ReplayTransport(
            har: fixture, mode: .recordWhenMissing(transport: DefaultTransport.shared, to: fixture))

        // In tests: answered from the file only; the network is never touched.
        let provider = Provider<Blog>(transport: try ReplayTransport(har: fixture))
        return (recording, provider)
    }
}
