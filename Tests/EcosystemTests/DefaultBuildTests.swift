import NetToolbox
import Foundation
import NetCore
import Testing

/// What a default build (no trait) is: the integrations compiled out, nothing else missing.
@Suite("Default build")
struct DefaultBuildTests {
    @Test("Without a trait, a provider still reports its events to observers")
    func eventsWithoutTraits() async throws {
        let seen = Locked(0)
        var configuration = ProviderConfiguration()
        configuration.eventObservers = [NetworkEventHandler { _ in seen.withLock { $0 += 1 } }]
        struct Target: TargetType {
            var baseURL: URL { URL(string: "https://example.com")! }
            var path: String { "/" }
            var method: HTTPMethod { .get }
            var content: RequestContent { .plain }
        }
        _ = try await Provider<Target>(transport: StubTransport(), configuration: configuration).request(Target())
        #expect(seen.withLock { $0 } == 4)
    }
}
