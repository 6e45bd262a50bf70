import Foundation
import NetCore
import NetPlugins
import Testing

@Suite(".http: request directives")
struct HTTPPolicyRequestTests {
    func origin(_ kind: StorageKind, name: String = #function) -> HTTPHarness {
        HTTPHarness(kind, name: name) { call, _, _ in (200, ["Cache-Control": "max-age=100", "ETag": "\"e\""], "call \(call)") }
    }

    @Test("no-cache and max-age=0 revalidate a fresh entry; max-age=N refuses older entries", arguments: StorageKind.allCases)
    func revalidating(kind: StorageKind) async throws {
        let harness = origin(kind)
        defer { harness.storage.remove() }
        _ = try await harness.get()
        _ = try await harness.get(headers: ["Cache-Control": "no-cache"])
        #expect(harness.sent(2).headers["If-None-Match"] == "\"e\"")
        _ = try await harness.get(headers: ["Cache-Control": "max-age=0"])
        #expect(harness.server.calls == 3)
        harness.clock.advance(30)
        #expect(try await harness.get(headers: ["Cache-Control": "max-age=40"]).source == .cache)
        #expect(try await harness.get(headers: ["Cache-Control": "max-age=20"]).source == .network)
    }

    @Test("min-fresh and max-stale", arguments: StorageKind.allCases)
    func minFreshMaxStale(kind: StorageKind) async throws {
        let harness = origin(kind)
        defer { harness.storage.remove() }
        _ = try await harness.get()
        harness.clock.advance(80)
        #expect(try await harness.get(headers: ["Cache-Control": "min-fresh=10"]).source == .cache)
        #expect(try await harness.get(headers: ["Cache-Control": "min-fresh=30"]).source == .network)
        harness.clock.advance(150)
        let stale = try await harness.get(headers: ["Cache-Control": "max-stale=60"])
        #expect(stale.source == .cache && stale.cacheInfo?.isStale == true)
        #expect(try await harness.get(headers: ["Cache-Control": "max-stale"]).source == .cache)
        #expect(try await harness.get(headers: ["Cache-Control": "max-stale=10"]).source == .network)
    }

    @Test("only-if-cached: a hit, or 504 without sending", arguments: StorageKind.allCases)
    func onlyIfCached(kind: StorageKind) async throws {
        let harness = origin(kind)
        defer { harness.storage.remove() }
        let miss = try await harness.get(headers: ["Cache-Control": "only-if-cached"])
        #expect(miss.statusCode == 504 && harness.server.calls == 0)
        await #expect(throws: NetworkError.self) {
            try await harness.get(headers: ["Cache-Control": "only-if-cached"], validation: .successCodes)
        }
        _ = try await harness.get()
        #expect(try await harness.get(headers: ["Cache-Control": "only-if-cached"]).string() == "call 1")
        harness.clock.advance(200)
        #expect(try await harness.get(headers: ["Cache-Control": "only-if-cached"]).statusCode == 504)
        #expect(harness.server.calls == 1)
    }

    @Test("no-store: neither read nor stored", arguments: StorageKind.allCases)
    func noStore(kind: StorageKind) async throws {
        let harness = origin(kind)
        defer { harness.storage.remove() }
        _ = try await harness.get()
        let fetched = try await harness.get(headers: ["Cache-Control": "no-store"])
        #expect(fetched.string() == "call 2")
        #expect(try await harness.get().string() == "call 1")
    }
}
