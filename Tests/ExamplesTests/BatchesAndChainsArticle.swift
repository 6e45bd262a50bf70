// The code of the article "Batches and chains" (Sources/NetBatch/NetBatch.docc/BatchesAndChains.md), block by block: ArticleTwinTests
// requires this file to open with the article's first block and to import nothing else, so the
// article compiles as a reader pastes it.
import Foundation
import NetBatch
import NetChain
import NetCore

enum Members: TargetType {
    case member(Int)
    case register(name: String)

    var baseURL: URL { URL(string: "https://api.example.com")! }
    var path: String {
        switch self {
        case .member(let id): "/members/\(id)"
        case .register: "/members"
        }
    }
    var method: HTTPMethod { if case .register = self { .post } else { .get } }
    var content: RequestContent {
        if case .register(let name) = self { .json(["name": name]) } else { .plain }
    }
}

struct Member: Decodable, Sendable {
    var id: Int
    var name: String
}

func loadMembers(_ ids: [Int], provider: Provider<Members>) async throws -> [Member] {
    let batch = BatchManager(
        provider: provider,
        configuration: BatchConfiguration(
            maxConcurrent: 4, maxRetries: 2,
            retryTiming: .backoff(initial: .milliseconds(100), multiplier: 2, max: .seconds(2))))
    let result = await batch.run(ids.map(Members.member))
    return try result.decode(as: Member.self)  // in the order of `ids`; throws if an item failed
}

func registerAndLoad(_ name: String, provider: Provider<Members>) async throws -> Member {
    let responses = try await Chain(provider, .register(name: name))
        .then { previous in .member(try previous.decode(Member.self).id) }
        .run()
    return try responses[responses.count - 1].decode(Member.self)
}
