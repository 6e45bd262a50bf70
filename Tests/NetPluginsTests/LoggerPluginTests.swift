import Foundation
import NetCore
@testable import NetPlugins
import Testing
import NetTestSupport

@Suite("LoggerPlugin")
struct LoggerPluginTests {
    @Test func compactModeWritesOneLinePerRequestAndPerResponse() async throws {
        let lines = Lines()
        let provider = Provider<TestTarget>(transport: StubTransport(), plugins: [LoggerPlugin(output: lines.sink)])
        var target = TestTarget()
        target.sampleResponse = .json(#"{"ok":true}"#)
        _ = try await provider.request(target)
        #expect(lines.all.count == 2)
        #expect(lines.all[0] == "→ GET https://api.example.com/items attempt=1")
        let response = lines.all[1]
        #expect(response.hasPrefix("← 200 GET https://api.example.com/items "))
        #expect(response.contains(" ms 11 B attempt=1 source=stub"))
    }

    @Test func everyAttemptIsLoggedWithItsNumber() async throws {
        let lines = Lines()
        let calls = Counter()
        let transport = stub { request in
            Response(statusCode: calls.increment() == 1 ? 503 : 200, request: request)
        }
        let retry = RetryPlugin(baseDelay: .zero, jitter: false)
        let provider = Provider<TestTarget>(transport: transport, plugins: [LoggerPlugin(output: lines.sink), retry])
        _ = try await provider.request(TestTarget())
        #expect(lines.all.count == 4)
        #expect(lines.all[1].hasPrefix("← 503 ") && lines.all[1].contains("attempt=1") && lines.all[1].hasSuffix("(status not accepted)"))
        #expect(lines.all[2] == "→ GET https://api.example.com/items attempt=2")
        #expect(lines.all[3].hasPrefix("← 200 ") && lines.all[3].contains("attempt=2"))
    }

    @Test func answersFromPrepareAndStopsAreLoggedOnce() async throws {
        struct Answering: Plugin {
            func prepare(_ request: inout Request) async throws -> PrepareAction {
                var response = Response(statusCode: 200, data: Data("cached".utf8), request: request)
                response.source = .cache
                return .respond(response)
            }
        }
        struct Stopping: Plugin {
            func willSend(_ request: Request) async -> SendAction { .stop(reason: "offline") }
        }
        let lines = Lines()
        _ = try await Provider<TestTarget>(transport: StubTransport(), plugins: [LoggerPlugin(output: lines.sink), Answering()])
            .request(TestTarget())
        #expect(lines.all.count == 1)
        #expect(lines.all[0].contains("← 200 GET") && lines.all[0].contains("source=cache"))

        let stopped = Lines()
        await #expect(throws: NetworkError.self) {
            try await Provider<TestTarget>(transport: StubTransport(), plugins: [LoggerPlugin(output: stopped.sink), Stopping()])
                .request(TestTarget())
        }
        #expect(stopped.all.count == 2)
        #expect(stopped.all[1].hasPrefix("← ERROR GET") && stopped.all[1].contains("offline"))
    }

    @Test func anAttemptIsLoggedOnceAsItEndedEvenWhenAPluginRecoversIt() async throws {
        struct Recovering: Plugin {
            func failure(_ error: NetworkError, for request: Request) async -> FailureAction {
                .recover(Response(statusCode: 200, data: Data("stale".utf8), request: request, source: .cache))
            }
        }
        let lines = Lines()
        let transport = stub { _ in throw NetworkError.connectionFailed(host: "api.example.com", reason: "refused") }
        _ = try await Provider<TestTarget>(transport: transport, plugins: [LoggerPlugin(output: lines.sink), Recovering()]).request(TestTarget())
        #expect(lines.all.count == 2)
        #expect(lines.all[1].hasPrefix("← ERROR GET https://api.example.com/items") && lines.all[1].contains("refused"))
    }

    @Test func secretsNeverAppearInAnyMode() async throws {
        let secrets = ["s3cr3t-token", "cookie-value-1", "query-secret", "custom-secret", "set-cookie-secret"]
        for verbosity in [LoggerPlugin.Verbosity.compact, .verbose] {
            let lines = Lines()
            var target = TestTarget()
            target.method = .post
            target.content = .withQuery(.json(["token": "s3cr3t-token", "name": "visible"]), ["access_token": "query-secret", "page": "2"])
            target.headers = ["Authorization": "Bearer s3cr3t-token", "Cookie": "session=cookie-value-1", "X-Api-Key": "custom-secret"]
            let body = #"{"echo":"Bearer s3cr3t-token","headers":{"Authorization":"Bearer s3cr3t-token","X-Api-Key":"custom-secret"}}"#
            target.sampleResponse = SampleResponse(
                statusCode: 500, headers: ["Set-Cookie": "id=set-cookie-secret; Path=/", "Content-Type": "application/json"], data: Data(body.utf8))
            let logger = LoggerPlugin(
                verbosity: verbosity, includesCurlCommand: true,
                redaction: .default.adding(headers: ["x-api-key"]), output: lines.sink)
            _ = try? await Provider<TestTarget>(transport: StubTransport(), plugins: [logger]).request(target)
            let text = lines.joined
            #expect(!text.isEmpty)
            for secret in secrets {
                #expect(!text.contains(secret), "\(verbosity) output contains \(secret):\n\(text)")
            }
            #expect(text.contains("page=2"))
            #expect(text.contains("access_token=%3Credacted%3E"))
            if verbosity == .verbose {
                #expect(text.contains("Authorization: <redacted>"))
                #expect(text.contains("\"name\" : \"visible\""))
                #expect(text.contains("X-Api-Key: <redacted>"))
            }
        }
    }

    @Test func verboseModePrettyPrintsJSONTruncatesAndSummarisesBinary() async throws {
        let lines = Lines()
        var json = TestTarget()
        json.sampleResponse = .json(#"{"b":[1,2],"a":"x"}"#)
        var long = TestTarget()
        long.sampleResponse = SampleResponse(statusCode: 200, headers: ["Content-Type": "text/plain"], data: Data(String(repeating: "x", count: 100).utf8))
        var binary = TestTarget()
        binary.sampleResponse = SampleResponse(statusCode: 200, headers: ["Content-Type": "image/png"], data: Data([0x89, 0x50, 0x00, 0xFF]))
        let provider = Provider<TestTarget>(transport: StubTransport(), plugins: [LoggerPlugin(verbosity: .verbose, bodyLimit: 40, output: lines.sink)])
        _ = try await provider.request(json)
        _ = try await provider.request(long)
        _ = try await provider.request(binary)
        let text = lines.joined
        #expect(text.contains("\"a\" : \"x\""))
        #expect(text.contains(String(repeating: "x", count: 40) + "… (60 more characters)"))
        #expect(text.contains("<image/png body, 4 B>"))
    }

    @Test func curlCommandReproducesMethodHeadersBodyAndURL() async throws {
        let lines = Lines()
        var target = TestTarget()
        target.method = .put
        target.content = .data(Data("it's".utf8), contentType: "text/plain")
        _ = try await Provider<TestTarget>(transport: StubTransport(), plugins: [LoggerPlugin(includesCurlCommand: true, output: lines.sink)])
            .request(target)
        #expect(lines.all[0].hasSuffix("\ncurl -X 'PUT' -H 'Content-Type: text/plain' --data-binary 'it'\\''s' 'https://api.example.com/items'"))
    }
}
