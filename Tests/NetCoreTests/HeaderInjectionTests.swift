import Foundation
import NetCore
import NetTestSupport
import Testing

/// Requests that would change the shape of the HTTP message fail before any transport sees them.
@Suite("Header and method injection is refused before sending")
struct HeaderInjectionTests {
    let log = TransportLog()
    var provider: Provider<TestTarget> { Provider(transport: StubTransport.counting(log)) }

    static let badValues = ["a\r\nX-Injected: 1", "a\nb", "a\rb", "a\u{0}b", "a\u{7}b", "a\u{7F}b"]

    @Test("A header value with CR, LF, NUL or another control is invalidRequest naming the header, not its value", arguments: badValues)
    func badHeaderValue(value: String) async {
        let secret = value + "secret-token-xyz"
        let error = await failure(of: TestTarget(headers: ["X-Trace": secret]), on: provider)
        guard case .invalidRequest(_, let reason)? = error else {
            Issue.record("expected invalidRequest, got \(String(describing: error))")
            return
        }
        #expect(reason.contains("X-Trace"))
        #expect(!(error?.description.contains("secret-token-xyz") ?? true), "the value never appears in the error")
        #expect(log.count == 0, "nothing was sent")
    }

    @Test(
        "A base URL that is not http(s) with a host is invalidURL, and nothing is sent",
        arguments: ["http:///127.0.0.1:8080/", "ftp://files.example.com/", "file:///etc/", "mailto:someone@example.com"])
    func badURL(base: String) async {
        let error = await failure(of: TestTarget(baseURL: URL(string: base)!), on: provider)
        #expect(error?.caseName == "invalidURL", "\(base): \(String(describing: error))")
        #expect(log.count == 0)
    }

    @Test("A tab inside a header value is allowed")
    func tabAllowed() async throws {
        _ = try await provider.request(TestTarget(headers: ["X-Tabs": "a\tb"]))
        #expect(log.count == 1)
    }

    @Test("A header name that is not a token is refused", arguments: ["X-Bad\r\nX-Injected", "X Space", "X:Colon", "", "X-\u{0}"])
    func badHeaderName(name: String) async {
        let error = await failure(of: TestTarget(headers: [name: "v"]), on: provider)
        #expect(error?.caseName == "invalidRequest", "\(String(describing: error))")
        #expect(log.count == 0)
    }

    @Test("A custom method that is not a token is refused", arguments: ["GET /admin HTTP/1.1\r\nHost: x\r\n\r\nGET", "GE T", "", "PURGE\n"])
    func badMethod(method: String) async {
        let error = await failure(of: TestTarget(method: HTTPMethod(rawValue: method)), on: provider)
        guard case .invalidRequest(_, let reason)? = error else {
            Issue.record("expected invalidRequest, got \(String(describing: error))")
            return
        }
        #expect(reason.contains("method"))
        #expect(log.count == 0)
    }

    @Test("Custom token methods such as PURGE and PROPFIND are sent")
    func customTokenMethod() async throws {
        _ = try await provider.request(TestTarget(method: "PURGE"))
        _ = try await provider.request(TestTarget(method: "PROPFIND"))
        #expect(log.count == 2)
    }

    @Test("Headers a plugin adds in prepare are checked too; willSend never sees the bad request")
    func pluginAddedHeader() async {
        let recorder = Recorder()
        var plugin = RecordingPlugin("adder", recorder)
        plugin.onPrepare = { request in
            request.headers["X-From-Plugin"] = "ok\r\nInjected: yes"
            return .proceed
        }
        let provider = Provider<TestTarget>(transport: StubTransport.counting(log), plugins: [plugin])
        let error = await failure(of: TestTarget(), on: provider)
        guard case .invalidRequest(_, let reason)? = error else {
            Issue.record("expected invalidRequest, got \(String(describing: error))")
            return
        }
        #expect(reason.contains("X-From-Plugin"))
        #expect(recorder.calls(of: "willSend").isEmpty)
        #expect(recorder.calls(of: "process").count == 1, "process still runs")
        #expect(log.count == 0)
    }
}
