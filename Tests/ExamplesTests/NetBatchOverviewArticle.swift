// The code of the NetBatch overview (Sources/NetBatch/NetBatch.docc/NetBatch.md), on the
// `Members` API of BatchesAndChainsArticle.swift: ArticleTwinTests requires this file to open with
// the article's block and to import nothing else.
import NetBatch
import NetCore

func loadMembersInBatches(_ ids: [Int], provider: Provider<Members>) async throws -> [Member] {
    let batch = BatchManager(
        provider: provider,
        configuration: BatchConfiguration(
            maxConcurrent: 8, maxRetries: 3,
            retryTiming: .backoff(initial: .milliseconds(100), multiplier: 2, max: .seconds(5))))
    let result = await batch.run(ids.map(Members.member)) { event in print(event) }
    return try result.decode(as: Member.self)  // in the order of `ids`
}
