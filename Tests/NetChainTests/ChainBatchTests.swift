import Foundation
import NetBatch
import NetChain
import NetCore
import Testing

@Suite("Chains and batches combined")
struct ChainBatchTests {
    @Test("A step may run a batch and choose the next target from its result")
    func batchInsideChain() async throws {
        let recorder = PathRecorder()
        let provider = Provider<API>(transport: StubTransport(behavior: .delayed(.milliseconds(1))), plugins: [recorder])
        let batch = BatchManager(provider: provider, configuration: BatchConfiguration(maxConcurrent: 2))
        let responses = try await Chain(provider, .register(name: "ada"))
            .then { previous in
                let account = try previous.decode(Account.self)
                let friends = await batch.run(account.friends.map(API.friend))
                let names = try friends.decode(as: Friend.self).map(\.name)
                return .summary(friends: names.count)
            }
            .run()
        #expect(responses.count == 2)
        #expect(try responses[1].decode([String: Int].self) == ["friends": 3])
        #expect(recorder.sent.first == "/register")
        #expect(Set(recorder.sent[1...3]) == ["/friends/1", "/friends/2", "/friends/3"])
        #expect(recorder.sent.last == "/summary")
    }

    @Test("A batch item may be a whole chain; a failed chain keeps its request error through networkError")
    func chainAsBatchItem() async throws {
        let provider = Provider<API>(transport: StubTransport())
        let profileChain = Chain(provider, .register(name: "ada")).then { .profile(id: try $0.decode(Account.self).id) }
        let brokenChain = Chain(provider, .register(name: "bob")).then { _ in .broken }
        let batch = BatchManager(provider: provider, configuration: BatchConfiguration(maxConcurrent: 3))
        let result = await batch.run([
            .target(.friend(1)),
            .operation { try await profileChain.run { $0 } },
            .operation {
                do throws(ChainError) { return try await brokenChain.run { $0 } } catch { throw error.networkError }
            },
            .operation { try await brokenChain.run { $0 } },
        ])
        #expect(result[0].succeeded)
        #expect(try result[1].response?.decode(Profile.self).id == "u-42")
        #expect(result[2].error?.statusCode == 500)
        // Without mapping, the chain's description is kept as a transport error.
        guard case .transport(let reason, _)? = result[3].error else {
            Issue.record("expected a transport error, got \(String(describing: result[3].error))")
            return
        }
        #expect(reason.contains("step 1"))
    }
}
