import Foundation
import NetCore
import NetPlugins
import Testing

@Suite(".http: invalidation by unsafe methods")
struct HTTPPolicyInvalidationTests {
    @Test("a non-error POST, PUT, DELETE, PATCH or unknown method removes the URL's entries", arguments: StorageKind.allCases)
    func invalidates(kind: StorageKind) async throws {
        for method in [HTTPMethod.post, .put, .delete, .patch, "PURGE"] {
            let harness = HTTPHarness(kind) { call, _, _ in (200, ["Cache-Control": "max-age=600"], "call \(call)") }
            defer { harness.storage.remove() }
            _ = try await harness.get()
            _ = try await harness.get(method: method)
            #expect(try await harness.get().string() == "call 3", "\(method)")
        }
    }

    @Test("an error response does not invalidate; OPTIONS is safe", arguments: StorageKind.allCases)
    func keeps(kind: StorageKind) async throws {
        let harness = HTTPHarness(kind) { call, request, _ in
            (request.method == .post ? 500 : 200, ["Cache-Control": "max-age=600"], "call \(call)")
        }
        defer { harness.storage.remove() }
        _ = try await harness.get()
        _ = try await harness.get(method: .post)
        _ = try await harness.get(method: .options)
        #expect(try await harness.get().string() == "call 1")
    }

    @Test("same-origin Location and Content-Location are invalidated, other origins are not", arguments: StorageKind.allCases)
    func related(kind: StorageKind) async throws {
        let harness = HTTPHarness(kind) { call, request, _ in
            guard request.method == .post else { return (200, ["Cache-Control": "max-age=600"], "call \(call)") }
            return (201, ["Location": "/a", "Content-Location": "https://elsewhere.example.com/b"], "")
        }
        defer { harness.storage.remove() }
        _ = try await harness.get("a")
        _ = try await harness.get("b")
        _ = try await harness.get("items", method: .post)
        #expect(try await harness.get("a").source == .network)
        #expect(try await harness.get("b").source == .cache)
    }
}
