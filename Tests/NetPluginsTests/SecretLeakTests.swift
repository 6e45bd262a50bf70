import Foundation
import NetCore
@testable import NetPlugins
import Testing
import NetTestSupport

/// Each leak found by the hostile-server review, through a provider with `StubTransport`: the logger's
/// lines (compact, verbose, cURL) and the capture's entries and HAR must not hold the secret.
@Suite("Secret leaks")
struct SecretLeakTests {
    /// Everything a verbose logger with cURL commands writes for one request.
    private func logged(_ target: TestTarget, verbosity: LoggerPlugin.Verbosity = .verbose) async -> String {
        let lines = Lines()
        let logger = LoggerPlugin(verbosity: verbosity, includesCurlCommand: true, output: lines.sink)
        _ = try? await Provider<TestTarget>(transport: StubTransport(), plugins: [logger]).request(target)
        return lines.joined
    }

    /// The capture's HAR and a dump of its entries for one request.
    private func captured(_ target: TestTarget) async throws -> (har: String, entries: [CapturedExchange]) {
        let capture = CapturePlugin()
        _ = try? await Provider<TestTarget>(transport: StubTransport(), plugins: [capture]).request(target)
        return (String(decoding: try capture.harData(), as: UTF8.self), capture.exchanges)
    }

    @Test("a JSON password never reaches the cURL command (compact and verbose)")
    func jsonPasswordInCurlCommand() async {
        var target = TestTarget()
        target.method = .post
        target.content = .json(["user": "ann", "password": "pw-json-7731"])
        for verbosity in [LoggerPlugin.Verbosity.compact, .verbose] {
            let text = await logged(target, verbosity: verbosity)
            let curl = text.split(separator: "\n").first { $0.hasPrefix("curl ") }.map(String.init) ?? ""
            #expect(curl.contains("--data-binary"), "no cURL body in:\n\(text)")
            #expect(!text.contains("pw-json-7731"), "\(verbosity) output leaks the JSON password:\n\(text)")
            #expect(curl.contains(#""password":"<redacted>""#) && curl.contains(#""user":"ann""#))
        }
    }

    @Test("password= in a form body is redacted in the log and in the HAR")
    func formPassword() async throws {
        var target = TestTarget()
        target.method = .post
        target.content = .form(["user": "ann", "password": "pw-form-5520"])
        let text = await logged(target)
        #expect(!text.contains("pw-form-5520"), "log leaks the form password:\n\(text)")
        #expect(text.contains("password=%3Credacted%3E") && text.contains("user=ann"))
        let (har, entries) = try await captured(target)
        #expect(!har.contains("pw-form-5520"), "HAR leaks the form password")
        #expect(!String(decoding: entries[0].requestBody ?? Data(), as: UTF8.self).contains("pw-form-5520"))
        #expect(har.contains(#""value" : "<redacted>""#))
    }

    @Test("a multipart field named like a secret is redacted in the log and in the HAR")
    func multipartSecretField() async throws {
        var target = TestTarget()
        target.method = .post
        target.content = .multipart([
            MultipartPart(name: "user", data: Data("ann".utf8)),
            MultipartPart(name: "client_secret", data: Data("cs-multi-8841".utf8)),
        ])
        let text = await logged(target)
        #expect(!text.contains("cs-multi-8841"), "log leaks the multipart secret:\n\(text)")
        #expect(text.contains("ann"))
        let (har, entries) = try await captured(target)
        #expect(!har.contains("cs-multi-8841"), "HAR leaks the multipart secret")
        let body = String(decoding: entries[0].requestBody ?? Data(), as: UTF8.self)
        #expect(!body.contains("cs-multi-8841") && body.contains("<redacted>") && body.contains("ann"))
    }

    @Test("user:password@ userinfo never reaches a log line, an error message or the HAR url")
    func userinfoInURL() async throws {
        var target = TestTarget()
        target.baseURL = URL(string: "https://ann:ui-pass-3390@api.example.com")!
        for verbosity in [LoggerPlugin.Verbosity.compact, .verbose] {
            let text = await logged(target, verbosity: verbosity)
            #expect(!text.contains("ui-pass-3390"), "\(verbosity) log leaks the userinfo:\n\(text)")
            #expect(text.contains("→ GET https://api.example.com/items attempt=1"), "\(text)")
        }
        let (har, entries) = try await captured(target)
        #expect(!har.contains("ui-pass-3390") && !har.contains("ann:"))
        #expect(entries[0].url == "https://api.example.com/items")

        let lines = Lines()
        let transport = stub { request in
            #expect(request.url.password == "ui-pass-3390", "the request must carry the userinfo for this test to mean anything")
            throw NetworkError.connectionFailed(host: "api.example.com", reason: "refused for \(request.url.absoluteString)")
        }
        _ = try? await Provider<TestTarget>(transport: transport, plugins: [LoggerPlugin(output: lines.sink)]).request(target)
        #expect(lines.all.count == 2 && lines.all[1].contains("refused for https://api.example.com/items"), "\(lines.all)")
        #expect(!lines.joined.contains("ui-pass-3390"))
    }

    @Test("bracketed query names (user[password], token[]) are redacted in the log and the HAR")
    func bracketedQueryNames() async throws {
        var target = TestTarget()
        target.content = .query(["user": ["name": "ann", "password": "pw-query-1177"], "token": ["tk-array-2288"], "page": 2])
        let text = await logged(target, verbosity: .compact)
        for secret in ["pw-query-1177", "tk-array-2288"] {
            #expect(!text.contains(secret), "log leaks \(secret):\n\(text)")
        }
        #expect(text.contains("page=2") && text.contains("ann"))
        let (har, entries) = try await captured(target)
        for secret in ["pw-query-1177", "tk-array-2288"] {
            #expect(!har.contains(secret) && !entries[0].url.contains(secret), "HAR leaks \(secret)")
        }
    }

    @Test("a credential echoed in a binary (octet-stream) response is not exported verbatim")
    func credentialInBinaryResponse() async throws {
        var target = TestTarget()
        target.headers = ["Authorization": "Bearer bin-token-6612"]
        let echoed = Data([0x00, 0xFF, 0x10]) + Data("Bearer bin-token-6612".utf8) + Data([0xFE, 0x00])
        target.sampleResponse = SampleResponse(statusCode: 200, headers: ["Content-Type": "application/octet-stream"], data: echoed)
        let (har, entries) = try await captured(target)
        let secret = Data("bin-token-6612".utf8)
        #expect(entries[0].responseBody.range(of: secret) == nil, "the captured binary body holds the token")
        let json = try JSONSerialization.jsonObject(with: Data(har.utf8)) as? [String: Any]
        let entry = try #require(((json?["log"] as? [String: Any])?["entries"] as? [[String: Any]])?.first)
        let content = try #require((entry["response"] as? [String: Any])?["content"] as? [String: Any])
        let exported = try #require(Data(base64Encoded: content["text"] as? String ?? ""))
        #expect(exported.range(of: secret) == nil, "the HAR's base64 body holds the token")
        #expect(exported.prefix(3) == Data([0x00, 0xFF, 0x10]))
    }

    @Test("a secret value echoed by the server in a text response is scrubbed in log and HAR")
    func bodyFieldEchoedInPlainText() async throws {
        var target = TestTarget()
        target.method = .post
        target.content = .form(["password": "pw-echo-4410"])
        target.sampleResponse = SampleResponse(statusCode: 200, headers: ["Content-Type": "text/plain"], data: Data("you sent pw-echo-4410".utf8))
        let text = await logged(target)
        #expect(!text.contains("pw-echo-4410") && text.contains("you sent <redacted>"), "\(text)")
        let (har, _) = try await captured(target)
        #expect(!har.contains("pw-echo-4410"))
    }
}
