import Foundation
import NetCore
import NetPlugins
import Testing

@Suite(".http: stale-if-error and stale-while-revalidate")
struct HTTPPolicyStaleTests {
    @Test("stale-if-error serves the stale entry on a 5xx within the window, not beyond", arguments: StorageKind.allCases)
    func staleIfError(kind: StorageKind) async throws {
        let harness = HTTPHarness(kind) { call, _, _ in
            call == 1 ? (200, ["Cache-Control": "max-age=10, stale-if-error=60"], "good") : (503, [:], "down")
        }
        defer { harness.storage.remove() }
        _ = try await harness.get(validation: .successCodes)
        harness.clock.advance(50)
        let served = try await harness.get(validation: .successCodes)
        #expect(served.string() == "good" && served.cacheInfo?.isStale == true)
        let accepted = try await harness.get()
        #expect(accepted.string() == "good")
        harness.clock.advance(30)
        await #expect(throws: NetworkError.self) { try await harness.get(validation: .successCodes) }
        #expect(harness.server.calls == 4)
    }

    @Test("a request's stale-if-error works too; without a window a 5xx is passed on")
    func requestStaleIfError() async throws {
        let harness = HTTPHarness(.memory) { call, _, _ in call == 1 ? (200, ["Cache-Control": "max-age=10"], "good") : (500, [:], "bad") }
        _ = try await harness.get()
        harness.clock.advance(20)
        #expect(try await harness.get().statusCode == 500)
        #expect(try await harness.get(headers: ["Cache-Control": "stale-if-error=30"]).string() == "good")
    }

    @Test("stale-while-revalidate serves stale at once and refreshes in the background", arguments: StorageKind.allCases)
    func staleWhileRevalidate(kind: StorageKind) async throws {
        let harness = HTTPHarness(kind, backgroundRevalidation: true) { call, _, _ in
            (200, ["Cache-Control": "max-age=10, stale-while-revalidate=60"], "call \(call)")
        }
        defer { harness.storage.remove() }
        _ = try await harness.get()
        harness.clock.advance(30)
        let stale = try await harness.get()
        #expect(stale.string() == "call 1" && stale.cacheInfo?.isStale == true)
        for _ in 0..<500 where await harness.plugin.count == 1 {
            if try await harness.get(headers: ["Cache-Control": "only-if-cached"]).string() == "call 2" { break }
            try await Task.sleep(for: .milliseconds(10))
        }
        let fresh = try await harness.get()
        #expect(fresh.string() == "call 2" && fresh.cacheInfo?.isStale == false)
        harness.clock.advance(100)
        #expect(try await harness.get().string() == "call 3")
        #expect(harness.server.calls == 3)
    }
}
