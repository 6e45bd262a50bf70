import NetToolbox
import Foundation
import NetCore
@testable import NetPlugins
import Testing

/// `Vary` is honoured: the varying request-header values are stored with the entry (memory and
/// disk) and must match; `Vary: *` is never stored.
@Suite("Vary")
struct VaryTests {
    /// A server whose responses carry `Vary: <vary>` and the body "response N".
    static func server(vary: String) -> Server {
        Server { call, request in
            Response(
                statusCode: 200, headers: ["Vary": vary, "ETag": "\"e\(call)\""],
                data: Data("response \(call)".utf8), request: request)
        }
    }

    /// `keyHeaders: []`, so only `Vary` can tell the languages apart.
    func provider(_ storage: any CacheBackend, _ server: Server, authorized: Bool = false) -> Provider<Endpoint> {
        Provider<Endpoint>(
            transport: server.transport,
            plugins: [
                CachePlugin(storage: CacheStorage(storage), keyHeaders: [], cachesAuthorizedRequests: authorized)
            ], configuration: ProviderConfiguration(maxAttempts: 1))
    }

    func language(_ value: String?, policy: CachePolicy = .cacheElseNetwork) -> Endpoint {
        Endpoint(headers: value.map { ["Accept-Language": $0] } ?? [:], cachePolicy: policy)
    }

    @Test(
        "Vary: Accept-Language answers the same language from the cache and sends for another",
        arguments: StorageKind.allCases)
    func acceptLanguage(kind: StorageKind) async throws {
        let made = kind.make()
        defer { made.remove() }
        let server = Self.server(vary: "Accept-Language")
        let provider = provider(made.storage, server)
        let english = try await provider.request(language("en"))
        let englishAgain = try await provider.request(language(" en "))
        #expect(english.source == .network)
        #expect(englishAgain.source == .cache)
        #expect(englishAgain.string() == "response 1")

        let french = try await provider.request(language("fr"))
        #expect(french.source == .network)
        #expect(french.string() == "response 2")
        let none = try await provider.request(language(nil))
        #expect(none.source == .network)
        #expect(server.calls == 3)
    }

    @Test(
        "a response stored for a request without the header matches only requests without it",
        arguments: StorageKind.allCases)
    func absentHeader(kind: StorageKind) async throws {
        let made = kind.make()
        defer { made.remove() }
        let server = Self.server(vary: "accept-language, Accept-Encoding")
        let provider = provider(made.storage, server)
        _ = try await provider.request(language(nil))
        #expect(try await provider.request(language(nil)).source == .cache)
        #expect(try await provider.request(language("en")).source == .network)
        #expect(server.calls == 2)
    }

    @Test("Vary: * is never stored and removes the older entry", arguments: StorageKind.allCases)
    func varyStar(kind: StorageKind) async throws {
        let made = kind.make()
        defer { made.remove() }
        let server = Server { call, request in
            Response(
                statusCode: 200, headers: call == 1 ? [:] : ["Vary": "Accept, *"],
                data: Data("response \(call)".utf8), request: request)
        }
        let provider = provider(made.storage, server)
        _ = try await provider.request(language("en", policy: .networkOnly))
        #expect(made.storage.count == 1)
        _ = try await provider.request(language("en", policy: .networkOnly))
        #expect(made.storage.count == 0)
        let third = try await provider.request(language("en"))
        #expect(third.source == .network)
        #expect(server.calls == 3)
        #expect(made.storage.count == 0)
    }

    @Test("an entry for another language is no offline fallback", arguments: StorageKind.allCases)
    func offlineFallback(kind: StorageKind) async throws {
        let made = kind.make()
        defer { made.remove() }
        let server = Server { call, request in
            guard call == 1 else { throw NetworkError.connectionFailed(host: "api.example.com", reason: "refused") }
            return Response(statusCode: 200, headers: ["Vary": "Accept-Language"], data: Data("en".utf8), request: request)
        }
        let provider = provider(made.storage, server)
        _ = try await provider.request(language("en", policy: .networkElseCache))
        await #expect(throws: NetworkError.self) {
            try await provider.request(language("fr", policy: .networkElseCache))
        }
        let english = try await provider.request(language("en", policy: .networkElseCache))
        #expect(english.source == .cache)
        #expect(english.string() == "en")
    }

    @Test("an entry for another language sends no validators under .revalidate", arguments: StorageKind.allCases)
    func revalidate(kind: StorageKind) async throws {
        let made = kind.make()
        defer { made.remove() }
        let server = Self.server(vary: "Accept-Language")
        let provider = provider(made.storage, server)
        _ = try await provider.request(language("en", policy: .revalidate))
        _ = try await provider.request(language("fr", policy: .revalidate))
        _ = try await provider.request(language("fr", policy: .revalidate))
        #expect(server.requests[1].headers["If-None-Match"] == nil)
        #expect(server.requests[2].headers["If-None-Match"] == "\"e2\"")
    }

    @Test(
        "a varying credential header is matched by its digest and never stored in clear",
        arguments: StorageKind.allCases)
    func varyOnCredential(kind: StorageKind) async throws {
        let made = kind.make()
        defer { made.remove() }
        let server = Self.server(vary: "Cookie")
        let provider = provider(made.storage, server, authorized: true)
        let request = Endpoint(headers: ["Cookie": "sid=vary-secret-789"])
        _ = try await provider.request(request)
        #expect(try await provider.request(request).source == .cache)

        let key = try #require(CachePlugin(keyHeaders: []).key(for: server.requests[0]))
        let entry = try #require(made.storage.entry(for: key))
        #expect(
            entry.varyingHeaders == [
                VaryingHeader(
                    name: "cookie",
                    value: "sha256:" + SHA256.hex(Data("sid=vary-secret-789".utf8)))
            ])
        #expect(!(try made.fileContents()).contains { $0.contains(text: "vary-secret-789") })
    }

    @Test(
        "an entry whose Vary names a header it has no recorded value for never matches",
        arguments: StorageKind.allCases)
    func unrecordedValues(kind: StorageKind) async throws {
        let made = kind.make()
        defer { made.remove() }
        let server = Server()
        let provider = provider(made.storage, server)
        let key = try #require(CachePlugin(keyHeaders: []).key(for: makeRequest()))
        // As a storage written by hand, or by an older version, would hold it.
        try made.storage.store(
            CacheEntry(
                statusCode: 200, headers: ["Vary": "Accept-Language"], data: Data("old".utf8),
                storedAt: Date()), for: key)
        let response = try await provider.request(language(nil))
        #expect(response.source == .network)
        #expect(response.string() == "response 1")
    }

    @Test("disk round-trips the varying values, absent ones included")
    func diskRoundTrip() throws {
        let made = StorageKind.disk.make()
        defer { made.remove() }
        var entry = makeEntry("hello")
        entry.headers["Vary"] = "Accept-Language, X-Absent"
        entry.varyingHeaders = [VaryingHeader(name: "Accept-Language", value: "fr"), VaryingHeader(name: "x-absent", value: nil)]
        let key = CacheKey(rawValue: "vary-round-trip")
        try made.storage.store(entry, for: key)
        let directory = try #require(made.directory)
        let read = try #require(DiskStorage(directory: directory).entry(for: key))
        #expect(read == entry)
        #expect(read.varyingHeaders.map(\.name) == ["accept-language", "x-absent"])
        #expect(read.varyingHeaders[1].value == nil)
    }

    @Test("an entry file of the first format (no varying values) is a miss and is removed, never a crash")
    func firstFormatFile() async throws {
        let made = StorageKind.disk.make()
        defer { made.remove() }
        let directory = try #require(made.directory)
        let key = try #require(CachePlugin().key(for: makeRequest()))
        let path = directory.appendingPathComponent(key.digest + ".nkcache")
        try Data(Self.firstFormat(key: key, body: "stored by 1.x", headers: [("Vary", "Accept-Language")])).write(to: path)

        let storage = DiskStorage(directory: directory)
        #expect(storage.count == 1)
        #expect(storage.entry(for: key) == nil)
        #expect(!FileManager.default.fileExists(atPath: path.path))

        // Through the plugin: a miss that sends, then the new entry in the new format.
        try Data(Self.firstFormat(key: key, body: "stored by 1.x", headers: [])).write(to: path)
        let server = Server()
        let provider = Provider<Endpoint>(
            transport: server.transport,
            plugins: [CachePlugin(storage: .disk(directory: directory))])
        let response = try await provider.request(Endpoint())
        #expect(try #require(CachePlugin().key(for: server.requests[0])) == key)
        #expect(response.source == .network)
        #expect(response.string() == "response 1")
        #expect(try Data(contentsOf: path).prefix(8) == Data("NKCACHE2".utf8))
    }

    /// An entry file as the first format wrote it (`NKCACHE1`, no varying values).
    static func firstFormat(key: CacheKey, body: String, headers: [(String, String)]) -> [UInt8] {
        var bytes = Array("NKCACHE1".utf8)
        func u32(_ value: Int) { withUnsafeBytes(of: UInt32(value).littleEndian) { bytes += $0 } }
        func u64(_ value: UInt64) { withUnsafeBytes(of: value.littleEndian) { bytes += $0 } }
        func string(_ text: String) {
            u32(text.utf8.count)
            bytes += text.utf8
        }
        string(key.rawValue)
        u64(200)
        u64(Date().timeIntervalSince1970.bitPattern)
        u64(0)
        bytes.append(0)
        u64(0)
        u32(headers.count)
        for (name, value) in headers {
            string(name)
            string(value)
        }
        u64(UInt64(body.utf8.count))
        bytes += body.utf8
        bytes += SHA256.hash(bytes)
        return bytes
    }
}
