// Mirrors the README section "Plugins"; keep them in sync.
import NetToolbox
import Foundation
import NetCore
import NetPlugins
import Testing

@Suite("README: Plugins")
struct PluginsExample {
    /// The README's placeholder API: one profile endpoint on a pinned host, one that answers a
    /// rejected business code.
    enum API: TargetType {
        case me
        case rejected

        var baseURL: URL { URL(string: "https://api.example.com")! }
        var path: String { self == .me ? "/me" : "/rejected" }
        var method: HTTPMethod { .get }
        var content: RequestContent { .plain }
    }

    /// The README's placeholder `session`: holds a token that the server no longer accepts
    /// until it is refreshed.
    actor Session {
        private(set) var token = "expired-token"
        private(set) var refreshes = 0
        func refresh() async throws -> String {
            refreshes += 1
            token = "fresh-token"
            return token
        }
    }

    /// A server that accepts only the fresh token and wraps bodies in a business-code envelope.
    static func server(hits: Locked<Int>) -> StubTransport {
        StubTransport(
            behavior: .custom { request in
                hits.update { $0 += 1 }
                guard request.headers["Authorization"] == "Bearer fresh-token" else {
                    return Response(statusCode: 401, request: request)
                }
                let body =
                    request.url.path == "/me"
                    ? #"{"code": 0, "message": "ok", "data": {"name": "Ada"}}"#
                    : #"{"code": 7, "message": "account locked"}"#
                return Response(statusCode: 200, headers: ["Content-Type": "application/json"], data: Data(body.utf8), request: request)
            })
    }

    /// A well-formed SPKI SHA-256 pin (base64 of 32 bytes). The README's `"base64-spki-sha256="`
    /// is rejected by `PinningPlugin.Pin.init`, which throws for anything but a 32-byte digest.
    static let pin = Data(repeating: 7, count: 32).base64EncodedString()

    @Test func theREADMEPluginStackAuthenticatesPinsChecksCodesAndCaptures() async throws {
        let session = Session()
        let cacheURL = temporaryDirectory()
        let hits = Locked(0)

        let capture = CapturePlugin()
        let provider = Provider<API>(
            transport: Self.server(hits: hits),
            plugins: [  // README: CurlTransport()
                AuthPlugin(token: { await session.token }, refresh: { try await session.refresh() }),
                RetryPlugin(maxRetries: 2),
                CachePlugin(storage: .memoryAndDisk(directory: cacheURL), policy: .cacheElseNetwork, maxAge: .seconds(300)),
                try PinningPlugin([.init(host: "*.example.com", keyHashes: [Self.pin])]),
                ResponseCodePlugin(codeKeyPath: "code", acceptedCodes: ["0"], messageKeyPath: "message"),
                LoggerPlugin(verbosity: .compact),
                capture,
            ])
        let harURL = cacheURL.appendingPathComponent("session.har")  // README: "session.har"

        // 401 with the stale token, one refresh, then the retried call succeeds.
        let name = try await provider.request(.me, as: String.self, atKeyPath: "data.name")
        #expect(name == "Ada")
        #expect(await session.refreshes == 1)
        #expect(hits.current == 2)

        let response = try await provider.request(.me)
        #expect(response.request.headers["Authorization"] == "Bearer fresh-token")
        #expect(response.request.tls?.pinnedKeyHashes == [Self.pin])
        // AuthPlugin runs first, so the request carries `Authorization` and CachePlugin (by
        // default `cachesAuthorizedRequests: false`) neither stores nor answers it.
        #expect(response.source == .network)
        #expect(hits.current == 3)

        // A rejected business code becomes `.businessCode` with the body's message.
        await #expect {
            _ = try await provider.request(.rejected)
        } throws: { error in
            guard case NetworkError.businessCode(let code, let message, _) = error else { return false }
            return code == "7" && message == "account locked"
        }

        try capture.harData().write(to: harURL)  // README: capture.exportHAR()
        let har = try JSONSerialization.jsonObject(with: Data(contentsOf: harURL)) as? [String: Any]
        let log = har?["log"] as? [String: Any]
        #expect(log?["version"] as? String == "1.2")
        #expect((log?["entries"] as? [Any])?.count == capture.count)
        // One entry per attempt (CapturePlugin observes through `didReceive`): 401, 200, 200,
        // then the rejected call's 200 attempt; the `.businessCode` error ResponseCodePlugin makes
        // of it in `process` is the call's result, not another attempt.
        #expect(capture.exchanges.map(\.statusCode) == [401, 200, 200, 200])
        #expect(capture.exchanges.last?.error == nil)
        #expect(capture.exchanges(status: 401).count == 1)
        // Captures are redacted: the token never leaves the plugin.
        #expect(!String(decoding: try Data(contentsOf: harURL), as: UTF8.self).contains("fresh-token"))
    }

    @Test func cachePluginAnswersTheSecondRequestFromTheCacheWhenAuthorizedRequestsMayBeCached() async throws {
        let session = Session()
        let cacheURL = temporaryDirectory()
        let hits = Locked(0)
        let provider = Provider<API>(
            transport: Self.server(hits: hits),
            plugins: [
                AuthPlugin(token: { await session.token }, refresh: { try await session.refresh() }),
                CachePlugin(
                    storage: .memoryAndDisk(directory: cacheURL), policy: .cacheElseNetwork,
                    maxAge: .seconds(300), cachesAuthorizedRequests: true),
            ])

        let first = try await provider.request(.me)
        let second = try await provider.request(.me)

        #expect(first.source == .network)
        #expect(second.source == .cache)
        #expect(second.data == first.data)
        #expect(hits.current == 2)  // the 401 and the retried 200; the second call never left
        // The entry reached the disk level too.
        #expect(try FileManager.default.contentsOfDirectory(atPath: cacheURL.path).isEmpty == false)
    }
}

extension PluginsExample {
    /// The README block, compiled (the test above runs the same stack on a stub server).
    static func readmePluginStack(session: Session, cacheURL: URL, primaryPin: String, backupPin: String) throws {
        let capture = CapturePlugin()
        let provider = Provider<HTTPBin>(plugins: [
            // refresh() returns the new token
            AuthPlugin(token: { await session.token }, refresh: { try await session.refresh() }),
            RetryPlugin(maxRetries: 2),
            // Requests with credentials are cached only when you say so, then per user.
            CachePlugin(
                storage: .memoryAndDisk(directory: cacheURL), policy: .cacheElseNetwork,
                maxAge: .seconds(300),
                cachesAuthorizedRequests: true),
            // Base64 SPKI SHA-256 pins (44 characters); PinningPlugin.pin(ofCertificateAt:) computes one.
            try PinningPlugin([.init(host: "*.example.com", keyHashes: [primaryPin, backupPin])]),
            ResponseCodePlugin(codeKeyPath: "code", acceptedCodes: ["0"], messageKeyPath: "message"),
            LoggerPlugin(verbosity: .compact),
            capture,
        ])
        try capture.harData().write(to: URL(fileURLWithPath: "session.har"))
        _ = provider
    }
}
