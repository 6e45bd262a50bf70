import NetToolbox
import Foundation
import NetCore
import NetPlugins
import Testing
import NetTestSupport

/// Live revalidation against httpbin (NETKIT_HTTPBIN_URL), through `URLSessionTransport`.
@Suite("Cache against httpbin", .liveServers)
struct HTTPBinIntegrationTests {
    struct HTTPBin: CacheableTarget {
        var baseURL: URL
        var path: String
        var cachePolicy: CachePolicy
        var content: RequestContent = .plain
        var method: HTTPMethod { .get }
    }

    /// Records every status the transport produced, before the cache turns a 304 into a 200.
    final class StatusRecorder: Plugin {
        private let statuses = Locked<[Int]>([])
        var seen: [Int] { statuses.withLock { $0 } }

        func succeed(_ response: Response, for request: Request) async -> SucceedAction {
            statuses.withLock { $0.append(response.statusCode) }
            return .proceed
        }

        func failure(_ error: NetworkError, for request: Request) async -> FailureAction {
            statuses.withLock { $0.append(error.statusCode ?? -1) }
            return .proceed
        }
    }

    func httpbin() throws -> URL {
        try TestServers.require("NETKIT_HTTPBIN_URL")
    }

    func run(
        path: String, query: Parameters = [:], policy: CachePolicy, storage: MemoryStorage,
        recorder: StatusRecorder, base: URL
    ) async throws -> Response {
        let provider = Provider<HTTPBin>(
            plugins: [CachePlugin(storage: CacheStorage(storage)), recorder],
            configuration: ProviderConfiguration(maxAttempts: 1))
        return try await provider.request(HTTPBin(baseURL: base, path: path, cachePolicy: policy, content: query.isEmpty ? .plain : .query(query)))
    }

    @Test("/cache: the second request revalidates, gets a real 304 and answers with the stored body")
    func cacheEndpoint() async throws {
        let base = try httpbin()
        let storage = MemoryStorage(), recorder = StatusRecorder()
        let first = try await run(path: "cache", policy: .revalidate, storage: storage, recorder: recorder, base: base)
        let second = try await run(path: "cache", policy: .revalidate, storage: storage, recorder: recorder, base: base)
        #expect(recorder.seen == [200, 304])
        #expect(first.source == .network)
        #expect(second.source == .cache)
        #expect(second.statusCode == 200)
        #expect(second.data == first.data)
        #expect(second.request.headers["If-Modified-Since"] != nil || second.request.headers["If-None-Match"] != nil)
    }

    @Test("/etag/{etag}: If-None-Match with the stored ETag gets a real 304")
    func etagEndpoint() async throws {
        let base = try httpbin()
        let storage = MemoryStorage(), recorder = StatusRecorder()
        let first = try await run(path: "etag/netkit-v1", policy: .revalidate, storage: storage, recorder: recorder, base: base)
        #expect(first.headers["ETag"]?.contains("netkit-v1") == true)
        let second = try await run(path: "etag/netkit-v1", policy: .revalidate, storage: storage, recorder: recorder, base: base)
        #expect(recorder.seen == [200, 304])
        #expect(second.request.headers["If-None-Match"] == first.headers["ETag"])
        #expect(second.source == .cache)
        #expect(second.data == first.data)
        #expect(second.cacheInfo?.isStale == false)
    }

    @Test("/status/500 is never stored")
    func serverErrorNotStored() async throws {
        let base = try httpbin()
        let storage = MemoryStorage(), recorder = StatusRecorder()
        for _ in 0..<2 {
            await #expect(throws: NetworkError.self) {
                try await run(path: "status/500", policy: .cacheElseNetwork, storage: storage, recorder: recorder, base: base)
            }
        }
        #expect(recorder.seen == [500, 500])
        #expect(storage.count == 0)
    }

    @Test("a response with Cache-Control: no-store is not stored; a plain one is")
    func noStoreHeader() async throws {
        let base = try httpbin()
        let storage = MemoryStorage(), recorder = StatusRecorder()
        _ = try await run(
            path: "response-headers", query: ["Cache-Control": "no-store"], policy: .networkOnly,
            storage: storage, recorder: recorder, base: base)
        #expect(storage.count == 0)
        _ = try await run(
            path: "response-headers", query: ["X-Plain": "1"], policy: .networkOnly,
            storage: storage, recorder: recorder, base: base)
        #expect(storage.count == 1)
    }
}
