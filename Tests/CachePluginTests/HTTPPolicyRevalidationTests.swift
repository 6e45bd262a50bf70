import Foundation
import NetCore
import NetPlugins
import NetTestSupport
import Testing

@Suite(".http: revalidation")
struct HTTPPolicyRevalidationTests {
    /// An origin whose resource never changes: ETag `W/"v1"`, answering 304 to a matching
    /// `If-None-Match` with `X-Version: call N` and `cacheControl304`.
    static func origin(
        _ kind: StorageKind, cacheControl: String = "max-age=10", cacheControl304: String = "max-age=10",
        name: String = #function
    ) -> HTTPHarness {
        HTTPHarness(kind, name: name) { call, request, now in
            if request.headers["If-None-Match"] == "W/\"v1\"" {
                return (304, ["ETag": "W/\"v1\"", "Cache-Control": cacheControl304, "X-Version": "call \(call)"], "")
            }
            return (
                200,
                [
                    "ETag": "W/\"v1\"", "Last-Modified": "Sun, 06 Nov 1994 08:49:37 GMT", "Cache-Control": cacheControl,
                    "Content-Type": "text/plain", "X-Version": "call \(call)",
                ],
                "body"
            )
        }
    }

    @Test(
        "a stale entry is revalidated with If-None-Match and If-Modified-Since; a 304 answers with the stored body and new headers",
        arguments: StorageKind.allCases)
    func notModified(kind: StorageKind) async throws {
        let harness = Self.origin(kind)
        defer { harness.storage.remove() }
        _ = try await harness.get(validation: .successCodes)
        harness.clock.advance(11)
        let revalidated = try await harness.get(validation: .successCodes)
        #expect(harness.sent(2).headers["If-None-Match"] == "W/\"v1\"")
        #expect(harness.sent(2).headers["If-Modified-Since"] == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(revalidated.statusCode == 200 && revalidated.string() == "body")
        #expect(revalidated.headers["X-Version"] == "call 2")
        #expect(revalidated.headers["Content-Type"] == "text/plain")
        #expect(revalidated.cacheInfo?.isStale == false)
        // The 304's max-age made the entry fresh again, with the updated headers stored.
        harness.clock.advance(5)
        let hit = try await harness.get()
        #expect(harness.server.calls == 2)
        #expect(hit.headers["X-Version"] == "call 2" && hit.string() == "body")
    }

    @Test("a no-cache response is revalidated on every use", arguments: StorageKind.allCases)
    func noCache(kind: StorageKind) async throws {
        let harness = Self.origin(kind, cacheControl: "no-cache, max-age=600", cacheControl304: "no-cache")
        defer { harness.storage.remove() }
        for _ in 0..<3 { _ = try await harness.get() }
        #expect(harness.server.calls == 3)
        #expect(harness.sent(3).headers["If-None-Match"] == "W/\"v1\"")
    }

    @Test("offline, a stale entry is served stale unless must-revalidate", arguments: StorageKind.allCases)
    func offline(kind: StorageKind) async throws {
        for (cacheControl, served) in [("max-age=10", true), ("max-age=10, must-revalidate", false)] {
            let harness = HTTPHarness(kind) { call, _, _ in
                guard call == 1 else { throw NetworkError.connectionFailed(host: "api.example.com", reason: "offline") }
                return (200, ["Cache-Control": cacheControl], "body")
            }
            defer { harness.storage.remove() }
            _ = try await harness.get()
            harness.clock.advance(60)
            let result = await outcome { try await harness.get() }
            if served {
                let response = try result.get()
                #expect(response.cacheInfo == CacheInfo(age: .seconds(60), isStale: true))
            } else {
                #expect(throws: NetworkError.self) { try result.get() }
            }
        }
    }
}
