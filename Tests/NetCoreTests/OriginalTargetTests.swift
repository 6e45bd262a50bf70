import Foundation
import NetCore
import Testing

@Suite("Request.originalTarget")
struct OriginalTargetTests {
    private static let url = URL(string: "https://users.example.com/users/ann")!

    @Test func aWrappedTargetIsSeenThroughAnyTarget() {
        let request = Request(url: Self.url, target: AnyTarget(UsersAPI.user("ann")))
        #expect(request.target is AnyTarget)
        #expect(request.originalTarget is UsersAPI)
        // Wrapping twice keeps the original target, so one step reaches it.
        #expect(Request(url: Self.url, target: AnyTarget(AnyTarget(UsersAPI.user("ann")))).originalTarget is UsersAPI)
    }

    @Test func anUnwrappedTargetIsItself() {
        #expect(Request(url: Self.url, target: UsersAPI.user("ann")).originalTarget is UsersAPI)
    }

    @Test func pluginsOfAnAnyTargetProviderSeeTheOriginalTarget() async throws {
        struct Seen: Plugin {
            let recorder: Recorder
            func prepare(_ request: inout Request) async throws -> PrepareAction {
                recorder.record(String(describing: type(of: request.originalTarget)))
                return .proceed
            }
        }
        let recorder = Recorder()
        let provider = Provider<AnyTarget>(transport: StubTransport(), plugins: [Seen(recorder: recorder)])
        _ = try await provider.request(AnyTarget(UsersAPI.user("ann")))
        _ = try await provider.request(AnyTarget(PostsAPI.create(title: "t")))
        #expect(recorder.all == ["UsersAPI", "PostsAPI"])
    }
}
