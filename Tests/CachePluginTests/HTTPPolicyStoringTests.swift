import Foundation
import NetCore
import NetPlugins
import Testing

@Suite(".http: what is stored")
struct HTTPPolicyStoringTests {
    static let cases: [(status: Int, cacheControl: String?, stored: Bool)] = [
        (200, nil, true), (203, nil, true), (204, nil, true), (301, nil, true), (404, nil, true), (410, nil, true),
        (501, nil, true), (302, nil, false), (500, nil, false), (302, "max-age=60", true), (500, "max-age=60", true),
        (206, "max-age=60", false), (200, "no-store", false), (200, "private, max-age=60", true),
        (200, "max-age=60, NO-STORE", false),
    ]

    @Test("statuses cacheable by default, others only with explicit freshness; never 206 or no-store", arguments: StorageKind.allCases)
    func statuses(kind: StorageKind) async throws {
        for (status, cacheControl, stored) in Self.cases {
            let harness = HTTPHarness(kind) { _, _, _ in
                (status, cacheControl.map { ["Cache-Control": $0] } ?? [:], "body")
            }
            defer { harness.storage.remove() }
            _ = try await harness.get()
            #expect(harness.storage.storage.count == (stored ? 1 : 0), "\(status) \(cacheControl ?? "-")")
        }
    }

    @Test("a stored 404 with freshness answers without the network and fails validation like the original", arguments: StorageKind.allCases)
    func stored404(kind: StorageKind) async throws {
        let harness = HTTPHarness(kind) { _, _, _ in (404, ["Cache-Control": "max-age=600"], "gone") }
        defer { harness.storage.remove() }
        for _ in 0..<2 {
            await #expect {
                try await harness.get(validation: .successCodes)
            } throws: { error in
                guard case NetworkError.unacceptableStatus(let response) = error else { return false }
                return response.statusCode == 404 && response.string() == "gone"
            }
        }
        #expect(harness.server.calls == 1)
        let cached = try await harness.get()
        #expect(cached.statusCode == 404 && cached.source == .cache)
    }

    @Test("only GET and HEAD are stored; Vary: * and a request's no-store never", arguments: StorageKind.allCases)
    func methodsAndVary(kind: StorageKind) async throws {
        let harness = HTTPHarness(kind) { _, request, _ in
            (200, ["Cache-Control": "max-age=600", "Vary": request.url.path.hasSuffix("star") ? "*" : "Accept"], "x")
        }
        defer { harness.storage.remove() }
        _ = try await harness.get(method: .post)
        _ = try await harness.get("star")
        _ = try await harness.get(headers: ["Cache-Control": "no-store"])
        #expect(harness.storage.storage.count == 0)
        _ = try await harness.get(method: .head)
        _ = try await harness.get()
        #expect(harness.storage.storage.count == 2)
    }

    @Test("a Range request neither reads nor replaces the whole stored response")
    func rangeRequests() async throws {
        let harness = HTTPHarness(.memory) { _, request, _ in
            request.headers["Range"] == nil
                ? (200, ["Cache-Control": "max-age=600"], "whole") : (206, ["Content-Range": "bytes 0-1/5"], "wh")
        }
        _ = try await harness.get()
        let partial = try await harness.get(headers: ["Range": "bytes=0-1"])
        let whole = try await harness.get()
        #expect(partial.statusCode == 206 && partial.source == .network)
        #expect(whole.string() == "whole" && whole.source == .cache)
        #expect(harness.server.calls == 2)
    }
}
