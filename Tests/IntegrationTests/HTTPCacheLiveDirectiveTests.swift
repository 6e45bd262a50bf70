import Foundation
import NetCore
import NetPlugins
import Testing
import NetTestSupport

/// `CachePolicy.http` against a live origin: request directives, `Age` and `Expires`, errors
/// answered from a stale entry, and a stored 404, on both transports and both storages.
@Suite("HTTP cache (.http policy), live directives", .liveServers)
struct HTTPCacheLiveDirectiveTests {
    typealias Setup = HTTPCacheLiveTests.Setup
    static let storages = HTTPCacheLiveTests.storages

    @Test(
        "only-if-cached: 504 from the cache when nothing is stored, nothing sent; the stored entry once there is one", arguments: TransportKind.allCases,
        storages)
    func onlyIfCached(kind: TransportKind, onDisk: Bool) async throws {
        let setup = try Setup(kind, onDisk: onDisk)
        defer { setup.remove() }
        let query: Parameters = ["cc": "max-age=600"]
        let miss = try await setup.request(query, headers: ["Cache-Control": "only-if-cached"])
        #expect(miss.statusCode == 504 && miss.source == .cache)
        #expect(try await setup.stats().count == 0)
        let stored = try await setup.request(query)
        let hit = try await setup.request(query, headers: ["Cache-Control": "only-if-cached"])
        #expect(hit.statusCode == 200 && hit.source == .cache && hit.data == stored.data)
        #expect(try await setup.stats().count == 1)
    }

    @Test("a request's max-age=0 revalidates a fresh entry with its ETag; the 304 answers with the stored body", arguments: TransportKind.allCases, storages)
    func requestMaxAgeZero(kind: TransportKind, onDisk: Bool) async throws {
        let setup = try Setup(kind, onDisk: onDisk)
        defer { setup.remove() }
        let query: Parameters = ["cc": "max-age=600", "etag": "\"v1\""]
        let first = try await setup.request(query)
        let second = try await setup.request(query, headers: ["Cache-Control": "max-age=0"])
        #expect(second.statusCode == 200 && second.data == first.data)
        let stats = try await setup.stats()
        #expect(stats.count == 2)
        #expect(stats.conditionals.last?["if-none-match"] == "\"v1\"")
    }

    @Test("an Age past max-age, or an Expires in the past, is stale on arrival; a future Expires is fresh", arguments: TransportKind.allCases, storages)
    func ageAndExpires(kind: TransportKind, onDisk: Bool) async throws {
        for (query, expectedCount) in [
            (["cc": "max-age=60", "age": "120"] as Parameters, 2), (["expires": "-3600"], 2), (["expires": "3600"], 1),
        ] {
            let setup = try Setup(kind, onDisk: onDisk)
            defer { setup.remove() }
            _ = try await setup.request(query)
            _ = try await setup.request(query)
            #expect(try await setup.stats().count == expectedCount, "\(query)")
        }
    }

    @Test("stale-if-error: an origin that answers 503 gets the stale entry served, marked stale", arguments: TransportKind.allCases, storages)
    func staleIfError(kind: TransportKind, onDisk: Bool) async throws {
        let setup = try Setup(kind, onDisk: onDisk)
        defer { setup.remove() }
        let query: Parameters = ["cc": "max-age=0, stale-if-error=600", "then_status": "503"]
        let first = try await setup.request(query)
        let second = try await setup.request(query)
        #expect(second.statusCode == 200 && second.data == first.data && second.source == .cache)
        #expect(second.cacheInfo?.isStale == true)
        #expect(try await setup.stats().count == 2)
    }

    @Test("must-revalidate: the origin's 503 is passed on, never the stale entry", arguments: TransportKind.allCases, storages)
    func mustRevalidate(kind: TransportKind, onDisk: Bool) async throws {
        let setup = try Setup(kind, onDisk: onDisk)
        defer { setup.remove() }
        let query: Parameters = ["cc": "max-age=0, must-revalidate, stale-if-error=600", "then_status": "503"]
        _ = try await setup.request(query)
        let second = try await setup.request(query)
        #expect(second.statusCode == 503 && second.source == .network)
    }

    @Test("a 404 with explicit freshness is stored and answered from the cache", arguments: TransportKind.allCases, storages)
    func storedNotFound(kind: TransportKind, onDisk: Bool) async throws {
        let setup = try Setup(kind, onDisk: onDisk)
        defer { setup.remove() }
        let query: Parameters = ["cc": "max-age=600", "status": "404"]
        _ = try await setup.request(query)
        let second = try await setup.request(query)
        #expect(second.statusCode == 404 && second.source == .cache)
        #expect(try await setup.stats().count == 1)
    }
}
