import Foundation
import NetCore
import NetPlugins
import Testing
import NetTestSupport

/// A cookie jar adds its `Cookie` header on the wire only; its values are still secrets that logs,
/// captures and HAR exports hide, also where a server echoes them in a body.
@Suite("CookieJar: redaction")
struct CookieJarRedactionTests {
    /// Answers every request with a body that echoes the `Cookie` header it received.
    static let echo = StubTransport(
        behavior: .custom { request in
            let body = #"{"seen": "\#(request.headers["Cookie"] ?? "")"}"#
            return Response(
                statusCode: 500, headers: ["Content-Type": "application/json", "Set-Cookie": "next=set-jar-secret"], data: Data(body.utf8),
                request: request)
        })

    func provider(plugins: [any Plugin]) -> Provider<TestTarget> {
        let jar = CookieJar()
        jar.storeCookies(fromSetCookie: "sid=jar-secret-1; Secure", receivedFrom: URL(string: "https://api.example.com/")!)
        return Provider(transport: Self.echo, plugins: plugins, configuration: ProviderConfiguration(cookieJar: jar))
    }

    @Test("Logger lines (every verbosity) and error descriptions never show a jar cookie's value")
    func logger() async throws {
        for verbosity in [LoggerPlugin.Verbosity.compact, .verbose] {
            let lines = Lines()
            let logger = LoggerPlugin(verbosity: verbosity, includesCurlCommand: true, output: lines.sink)
            let error: any Error
            do {
                _ = try await provider(plugins: [logger]).request(TestTarget())
                Issue.record("the 500 was accepted")
                continue
            } catch let failure {
                error = failure
            }
            #expect(!lines.joined.isEmpty)
            for text in [lines.joined, "\(error)"] {
                #expect(!text.contains("jar-secret-1"), "\(verbosity): \(text)")
                #expect(!text.contains("set-jar-secret"), "\(verbosity): \(text)")
            }
        }
    }

    @Test("Captured exchanges and HAR exports never show a jar cookie's value")
    func capture() async throws {
        let capture = CapturePlugin()
        _ = try? await provider(plugins: [capture]).request(TestTarget())
        let har = String(decoding: try capture.harData(), as: UTF8.self)
        let bodies = capture.exchanges.map { String(decoding: $0.responseBody, as: UTF8.self) }.joined()
        #expect(bodies.contains("<redacted>"))
        for text in [har, bodies] {
            #expect(!text.contains("jar-secret-1"))
            #expect(!text.contains("set-jar-secret"))
        }
    }
}
