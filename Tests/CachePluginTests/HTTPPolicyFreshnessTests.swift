import Foundation
import NetCore
@testable import NetPlugins
import Testing

@Suite(".http: freshness and age")
struct HTTPPolicyFreshnessTests {
    /// Requests at 0, then at each offset (seconds after the first); returns the sources.
    func sources(_ harness: HTTPHarness, at offsets: [TimeInterval]) async throws -> [ResponseSource] {
        var sources = [try await harness.get().source]
        var elapsed: TimeInterval = 0
        for offset in offsets {
            harness.clock.advance(offset - elapsed)
            elapsed = offset
            sources.append(try await harness.get().source)
        }
        return sources
    }

    @Test("max-age: fresh before, stale after; s-maxage ignored", arguments: StorageKind.allCases)
    func maxAge(kind: StorageKind) async throws {
        let harness = HTTPHarness(kind) { _, _, _ in (200, ["Cache-Control": "s-maxage=9999, max-age=100"], "x") }
        defer { harness.storage.remove() }
        #expect(try await sources(harness, at: [99, 101]) == [.network, .cache, .network])
    }

    @Test("Expires − Date; an Expires in the past or invalid is stale", arguments: StorageKind.allCases)
    func expires(kind: StorageKind) async throws {
        for (expiresIn, expected) in [(100.0, ResponseSource.cache), (-30 * 86_400, .network)] {
            let harness = HTTPHarness(kind) { _, _, now in (200, ["Expires": httpDate(now + expiresIn)], "x") }
            defer { harness.storage.remove() }
            #expect(try await sources(harness, at: [50]) == [.network, expected])
        }
        let invalid = HTTPHarness(kind) { _, _, _ in (200, ["Expires": "0"], "x") }
        defer { invalid.storage.remove() }
        #expect(try await sources(invalid, at: [0]) == [.network, .network])
    }

    @Test("a malformed max-age is ignored (Expires applies); two different max-age values are stale")
    func malformed() async throws {
        let malformed = HTTPHarness(.memory) { _, _, now in
            (200, ["Cache-Control": "max-age=abc", "Expires": httpDate(now + 100)], "x")
        }
        #expect(try await sources(malformed, at: [50, 150]) == [.network, .cache, .network])
        let twice = HTTPHarness(.memory) { _, _, _ in (200, ["Cache-Control": "max-age=3600, max-age=1"], "x") }
        #expect(try await sources(twice, at: [0]) == [.network, .network])
        let quoted = HTTPHarness(.memory) { _, _, _ in (200, ["Cache-Control": "MAX-AGE=\"100\""], "x") }
        #expect(try await sources(quoted, at: [50]) == [.network, .cache])
    }

    @Test(
        "cache-tests cc-parse: whitespace around '=' makes max-age invalid, so the response is stale",
        arguments: ["max-age =3600", "max-age= 3600", "max-age = 3600", "public, max-age\t=3600"])
    func whitespaceAroundEquals(header: String) async throws {
        let harness = HTTPHarness(.memory) { _, _, now in (200, ["Cache-Control": header, "Expires": httpDate(now + 3600)], "x") }
        #expect(try await sources(harness, at: [10]) == [.network, .network])
        let valid = HTTPHarness(.memory) { _, _, _ in (200, ["Cache-Control": " max-age=3600 , public"], "x") }
        #expect(try await sources(valid, at: [10]) == [.network, .cache], "whitespace around a directive is fine")
    }

    @Test("the age counts Age, Date and the time in flight; hits report it in cacheInfo and Age", arguments: StorageKind.allCases)
    func age(kind: StorageKind) async throws {
        let old = HTTPHarness(kind) { _, _, _ in (200, ["Cache-Control": "max-age=3600", "Age": "7200"], "x") }
        defer { old.storage.remove() }
        #expect(try await sources(old, at: [0]) == [.network, .network])

        let aged = HTTPHarness(kind) { _, _, _ in (200, ["Cache-Control": "max-age=3600", "Age": "100"], "x") }
        defer { aged.storage.remove() }
        _ = try await aged.get()
        aged.clock.advance(20)
        let hit = try await aged.get()
        #expect(hit.source == .cache)
        #expect(hit.cacheInfo == CacheInfo(age: .seconds(120), isStale: false))
        #expect(hit.headers["Age"] == "120")

        let dated = HTTPHarness(kind) { _, _, now in (200, ["Cache-Control": "max-age=600", "Date": httpDate(now - 500)], "x") }
        defer { dated.storage.remove() }
        #expect(try await sources(dated, at: [50, 101]) == [.network, .cache, .network])
    }

    @Test("each hit's Age is its own second; hits in the same second agree", arguments: StorageKind.allCases)
    func ageAdvancesBetweenHits(kind: StorageKind) async throws {
        let harness = HTTPHarness(kind) { _, _, _ in (200, ["Cache-Control": "max-age=3600", "X-Version": "1"], "x") }
        defer { harness.storage.remove() }
        _ = try await harness.get()
        var ages: [String?] = []
        for step in [0.2, 0.3, 1, 0.1, 60] {
            harness.clock.advance(step)
            ages.append(try await harness.get().headers["Age"])
        }
        #expect(ages == ["0", "0", "1", "1", "61"])
    }

    @Test("an entry's headers changed after it was served give the next hit the new headers with its Age")
    func agedHeadersFollowTheEntry() {
        var entry = CacheEntry(statusCode: 200, headers: ["ETag": "\"a\""], data: Data(), storedAt: Date())
        #expect(entry.agedHeaders.headers(age: 5)["Age"] == "5")
        entry.headers["ETag"] = "\"b\""
        let served = entry.agedHeaders.headers(age: 5)
        #expect(served["ETag"] == "\"b\"" && served["Age"] == "5")
    }

    @Test("heuristic freshness: 10% of Date − Last-Modified, only for statuses that allow it", arguments: StorageKind.allCases)
    func heuristic(kind: StorageKind) async throws {
        let harness = HTTPHarness(kind) { _, _, now in (200, ["Last-Modified": httpDate(now - 10_000)], "x") }
        defer { harness.storage.remove() }
        #expect(try await sources(harness, at: [999, 1001]) == [.network, .cache, .network])
        let redirect = HTTPHarness(kind) { _, _, now in (302, ["Last-Modified": httpDate(now - 10_000)], "x") }
        defer { redirect.storage.remove() }
        #expect(try await sources(redirect, at: [1]) == [.network, .network])
    }

    @Test("HTTP-dates in the three formats")
    func dates() {
        let expected = Date(timeIntervalSince1970: 784_111_777)
        for text in ["Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994"] {
            #expect(HTTPDate.parse(text) == expected, "\(text)")
        }
        #expect(HTTPDate.parse("0") == nil)
        #expect(HTTPDate.parse("Sun, 32 Nov 1994 08:49:37 GMT") == nil)
    }
}
