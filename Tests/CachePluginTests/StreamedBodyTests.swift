import Foundation
import NetCore
import NetPlugins
import NetTestSupport
import Testing

/// A streamed call's body goes to its reader, never through the cache: the 2xx head the hooks see
/// has an empty `data`, which must never be stored as the body.
@Suite("Cache and streamed calls")
struct StreamedBodyTests {
    /// A server whose every answer may be stored for a minute, so `.http` would store it too.
    private func server() -> Server {
        Server { call, request in
            Response(
                statusCode: 200, headers: ["Content-Type": "text/plain", "Cache-Control": "max-age=60"],
                data: Data("response \(call)".utf8), request: request)
        }
    }

    private func read(_ stream: ResponseStream) async throws -> String {
        var body = Data()
        for try await chunk in stream { body.append(chunk) }
        return String(decoding: body, as: UTF8.self)
    }

    @Test(
        "A streamed call is not stored: the next request gets the whole body from the network, not an empty cached one",
        arguments: [CachePolicy.cacheElseNetwork, .networkOnly, .http])
    func streamedCallIsNotStored(policy: CachePolicy) async throws {
        let server = server()
        let storage = MemoryStorage()
        let provider = Provider<Endpoint>(transport: server.transport, plugins: [CachePlugin(storage: CacheStorage(storage))])
        #expect(try await read(provider.stream(Endpoint(cachePolicy: policy))) == "response 1")
        #expect(storage.count == 0)

        let next = try await provider.request(Endpoint(cachePolicy: policy))
        #expect(next.source == .network)
        #expect(next.string() == "response 2")
        #expect(server.calls == 2)
    }

    @Test("A streamed call goes to the network even when a whole call stored an entry, like a download")
    func streamedCallIsNotAnsweredFromTheCache() async throws {
        let server = server()
        let storage = MemoryStorage()
        let provider = Provider<Endpoint>(transport: server.transport, plugins: [CachePlugin(storage: CacheStorage(storage))])
        _ = try await provider.request(Endpoint(cachePolicy: .cacheElseNetwork))
        #expect(storage.count == 1)

        #expect(try await read(provider.stream(Endpoint(cachePolicy: .cacheElseNetwork))) == "response 2")
        #expect(server.calls == 2)
        // The whole call's entry is still there and still answers whole calls.
        let cached = try await provider.request(Endpoint(cachePolicy: .cacheElseNetwork))
        #expect(cached.source == .cache)
        #expect(cached.string() == "response 1")
    }
}

/// The same against httpbin's `/stream-bytes` (chunked, HTTP/1.1), on both transports.
@Suite("Cache and streamed calls against httpbin", .liveServers)
struct StreamedBodyLiveTests {
    struct Bytes: CacheableTarget {
        var baseURL: URL
        var path: String { "stream-bytes/2048" }
        var method: HTTPMethod { .get }
        var content: RequestContent { .query(["seed": 7, "chunk_size": 256]) }
        var cachePolicy: CachePolicy { .cacheElseNetwork }
    }

    @Test("A body streamed from httpbin is not cached empty: the next request reads the same 2048 bytes from the network", arguments: TransportKind.allCases)
    func streamedBodyIsNotCachedEmpty(kind: TransportKind) async throws {
        let target = Bytes(baseURL: try TestServers.require("NETKIT_HTTPBIN_URL"))
        let storage = MemoryStorage()
        let provider = Provider<Bytes>(transport: kind.make(), plugins: [CachePlugin(storage: CacheStorage(storage))])
        var streamed = Data()
        for try await chunk in provider.stream(target) { streamed.append(chunk) }
        #expect(streamed.count == 2048)
        #expect(storage.count == 0)

        let whole = try await provider.request(target)
        #expect(whole.source == .network)
        #expect(whole.data == streamed)
        // A whole call is stored as before, body and all.
        let cached = try await provider.request(target)
        #expect(cached.source == .cache)
        #expect(cached.data == streamed)
    }
}
