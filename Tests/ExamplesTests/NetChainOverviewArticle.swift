// The code of the NetChain overview (Sources/NetChain/NetChain.docc/NetChain.md), on the
// `Members` API of BatchesAndChainsArticle.swift: ArticleTwinTests requires this file to open with
// the article's block and to import nothing else.
import NetChain
import NetCore

func registerAndReload(provider: Provider<Members>) async throws -> Member {
    let responses = try await Chain(provider, .register(name: "ada"))
        .then { registered in .member(try registered.decode(Member.self).id) }
        .run()
    return try responses[responses.count - 1].decode(Member.self)
}
