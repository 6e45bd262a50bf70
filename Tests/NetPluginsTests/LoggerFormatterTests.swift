import Foundation
import NetCore
import NetPlugins
import Testing
import NetTestSupport

@Suite("LoggerPlugin.Formatter")
struct LoggerFormatterTests {
    @Test func customLinesReplaceTheBuiltInOnes() async throws {
        let lines = Lines()
        let formatter = LoggerPlugin.Formatter(
            request: { request in "REQ \(request.method.rawValue) \(request.url.path) #\(request.attempt)" },
            response: { result, request in
                switch result {
                case .success(let response): "RES \(response.statusCode) \(request.url.path)"
                case .failure(let error): "ERR \(error.code) \(request.url.path)"
                }
            })
        let provider = Provider<TestTarget>(transport: StubTransport(), plugins: [LoggerPlugin(formatter: formatter, output: lines.sink)])
        _ = try await provider.request(TestTarget())
        var failing = TestTarget()
        failing.sampleResponse = SampleResponse(statusCode: 503)
        _ = try? await provider.request(failing)
        #expect(lines.all == ["REQ GET /items #1", "RES 200 /items", "REQ GET /items #1", "ERR unacceptableStatus /items"])
    }

    @Test func aClosureLeftNilKeepsTheBuiltInLineAndVerboseDetailsFollow() async throws {
        let lines = Lines()
        let formatter = LoggerPlugin.Formatter(response: { result, _ in "done: \((try? result.get())?.statusCode ?? 0)" })
        var target = TestTarget()
        target.sampleResponse = .json(#"{"ok":true}"#)
        let logger = LoggerPlugin(verbosity: .verbose, formatter: formatter, output: lines.sink)
        _ = try await Provider<TestTarget>(transport: StubTransport(), plugins: [logger]).request(target)
        #expect(lines.all.count == 2)
        #expect(lines.all[0] == "→ GET https://api.example.com/items attempt=1")
        #expect(lines.all[1].hasPrefix("done: 200\n  Content-Type: application/json"))
        #expect(lines.all[1].contains("\"ok\" : true"))
    }

    @Test func theDefaultFormatterWritesTodaysLines() async throws {
        let plain = Lines()
        let formatted = Lines()
        let provider = Provider<TestTarget>(
            transport: StubTransport(),
            plugins: [LoggerPlugin(output: plain.sink), LoggerPlugin(formatter: .default, output: formatted.sink)])
        _ = try await provider.request(TestTarget())
        #expect(formatted.all[0] == plain.all[0])
        #expect(formatted.all[1].hasPrefix("← 200 GET https://api.example.com/items "))
    }

    /// A formatter that prints everything it can reach, raw, and one that prints a secret it
    /// knows from elsewhere: neither gets a secret into the log.
    @Test func secretsCannotLeakThroughAFormatter() async throws {
        let secrets = ["s3cr3t-token", "cookie-value-1", "query-secret", "custom-secret", "set-cookie-secret", "body-secret", "reply-secret", "pa55"]
        let formatter = LoggerPlugin.Formatter(
            request: { request in
                let headers = request.headers.map { "\($0.name)=\($0.value)" }.joined(separator: ",")
                let body = request.body.inMemoryData.map { String(decoding: $0, as: UTF8.self) } ?? ""
                return "REQ \(request.url.absoluteString) \(request.url.password ?? "-") \(headers) \(body) leaked=s3cr3t-token"
            },
            response: { result, request in
                let response: Response? =
                    switch result {
                    case .success(let response): response
                    case .failure(let error): error.response
                    }
                let headers = response?.headers.map { "\($0.name)=\($0.value)" }.joined(separator: ",") ?? ""
                let sent = response?.request.headers.map { "\($0.name)=\($0.value)" }.joined(separator: ",") ?? ""
                let body = response.map { String(decoding: $0.data, as: UTF8.self) } ?? ""
                return "RES \(request.url) \(headers) \(sent) \(body) \(result) leaked=custom-secret"
            })
        for verbosity in [LoggerPlugin.Verbosity.compact, .verbose] {
            for status in [200, 401] {
                let lines = Lines()
                var target = TestTarget()
                target.baseURL = URL(string: "https://ann:pa55@api.example.com")!
                target.method = .post
                target.content = .withQuery(.json(["password": "body-secret", "name": "visible"]), ["access_token": "query-secret", "page": "2"])
                target.headers = ["Authorization": "Bearer s3cr3t-token", "Cookie": "session=cookie-value-1", "X-Api-Key": "custom-secret"]
                let reply = #"{"access_token":"reply-secret","echo":"Bearer s3cr3t-token","key":"custom-secret"}"#
                target.sampleResponse = SampleResponse(
                    statusCode: status, headers: ["Set-Cookie": "id=set-cookie-secret; Path=/", "Content-Type": "application/json"],
                    data: Data(reply.utf8))
                let logger = LoggerPlugin(
                    verbosity: verbosity, includesCurlCommand: true, redaction: .default.adding(headers: ["x-api-key"]),
                    formatter: formatter, output: lines.sink)
                _ = try? await Provider<TestTarget>(transport: StubTransport(), plugins: [logger]).request(target)
                let text = lines.joined
                #expect(text.contains("REQ https://api.example.com/items?access_token=%3Credacted%3E&page=2"))
                #expect(text.contains("RES "))
                #expect(text.contains("\"name\":\"visible\""))
                for secret in secrets {
                    #expect(!text.contains(secret), "\(verbosity), \(status): output contains \(secret):\n\(text)")
                }
            }
        }
    }
}
