import NetToolbox
import Foundation
import NetTestSupport
import NetCore
import NetPlugins
import Testing

/// Credentials reach the server but never the logs, the captured exchanges or a HAR file.
@Suite(.liveServers, .serialized)
struct CredentialRedactionTests {
    /// Collects the logger's output.
    final class LogLines: Sendable {
        private let lines = Locked<[String]>([])
        var text: String { lines.withLock { $0.joined(separator: "\n") } }
        func append(_ line: String) { lines.withLock { $0.append(line) } }
    }

    /// Secrets in every place a request carries credentials. Each holds a random marker: whatever
    /// the encoding (percent, `+`, JSON escaping), a leak of any part of a value shows its marker.
    struct Secrets {
        let markers = (0..<5).map { _ in "M" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(16).lowercased() }
        var bearer: String { "tok.\(markers[0])" }
        var cookie: String { "ck\(markers[1])" }
        var apiKey: String { "ak 7~\(markers[2])" }  // percent-encoded in the URL (the space)
        var signature: String { "sg\(markers[3])" }  // a configured query name
        var headerKey: String { "xk\(markers[4])" }  // a configured header name

        var headers: [String: String] {
            ["Authorization": "Bearer \(bearer)", "Cookie": "session=\(cookie); theme=dark", "X-Api-Key": headerKey]
        }
        var query: Parameters { ["api_key": apiKey, "sig": signature, "page": 1] }
    }

    @Test(
        "Authorization, cookies and secret query values never reach logs, captures or HAR",
        arguments: TransportKind.allCases)
    func credentialsNeverLeak(kind: TransportKind) async throws {
        let httpbin = try TestServers.require("NETKIT_HTTPBIN_URL")
        let secrets = Secrets()
        let redaction = Redaction.default.adding(headers: ["X-Api-Key"], queryItems: ["sig"])
        let lines = LogLines()
        let logger = LoggerPlugin(
            verbosity: .verbose, bodyLimit: 100_000, includesCurlCommand: true, redaction: redaction,
            output: { lines.append($0) })
        let capture = CapturePlugin(redaction: redaction)
        let retry = RetryPlugin(maxRetries: 1, baseDelay: .milliseconds(10))
        let provider = Provider<FaultTarget>(transport: kind.make(), plugins: [logger, capture, retry])

        // 1. A success whose body echoes every credential back (httpbin /anything).
        let echo = try await provider.request(FaultTarget(path: "/anything", query: secrets.query, headers: secrets.headers, base: httpbin))
        // Control: the credentials did reach the server, so their absence below means redaction.
        let echoed = echo.string() ?? ""
        for marker in secrets.markers { #expect(echoed.contains(marker), "marker \(marker) was not sent") }

        // 2. A retried failure status (503, two attempts), whose body is logged and captured.
        await #expect(throws: NetworkError.self) {
            _ = try await provider.request(FaultTarget(path: "/status/503", query: secrets.query, headers: secrets.headers, base: httpbin))
        }
        // 3. A transport error (nothing listening), whose message may quote the URL.
        let closed = URL(string: "http://127.0.0.1:\(closedLoopbackPort())")!
        await #expect(throws: NetworkError.self) {
            _ = try await provider.request(FaultTarget(path: "/anything", query: secrets.query, headers: secrets.headers, base: closed))
        }

        let log = lines.text
        let exchanges = capture.exchanges
        let captured = exchanges.map { exchange in
            ([exchange.url, exchange.error ?? ""]
                + exchange.requestHeaders.map { "\($0.name): \($0.value)" }
                + exchange.responseHeaders.map { "\($0.name): \($0.value)" }
                + [String(decoding: exchange.requestBody ?? Data(), as: UTF8.self), String(decoding: exchange.responseBody, as: UTF8.self)]).joined(
                    separator: "\n")
        }.joined(separator: "\n")
        let har = String(decoding: try capture.harData(), as: UTF8.self)

        // The outputs are real: every attempt is there, with its redaction marks and cURL commands.
        #expect(exchanges.count == 5, "1 success + 2 attempts at 503 + 2 attempts at the closed port")
        #expect(log.contains("curl ") && log.contains("<redacted>") && log.contains("/anything"))
        #expect(captured.contains("<redacted>") && har.contains("redacted") && har.contains("/status/503"))
        for (name, text) in [("logger", log), ("capture", captured), ("HAR", har)] {
            for marker in secrets.markers {
                #expect(!text.contains(marker), "\(name) output leaks \(marker)")
            }
        }
    }

    @Test("A secret query value echoed back in another URL encoding is still scrubbed", arguments: TransportKind.allCases)
    func secretInAnotherEncoding(kind: TransportKind) async throws {
        let httpbin = try TestServers.require("NETKIT_HTTPBIN_URL")
        let marker = "M" + UUID().uuidString.prefix(8)
        let lines = LogLines()
        let capture = CapturePlugin()
        let provider = Provider<FaultTarget>(
            transport: kind.make(),
            plugins: [
                LoggerPlugin(verbosity: .verbose, bodyLimit: 100_000, output: { lines.append($0) }), capture,
            ])
        // NetKit sends "k 1+M" as k%201%2BM; httpbin's "url" field echoes it as k%201+M (0.7, Debian's)
        // or as sent (0.10, PyPI's). RedactionTests covers every spelling without a server.
        let response = try await provider.request(FaultTarget(path: "/anything", query: ["api_key": "k 1+\(marker)"], base: httpbin))
        let echo = response.string() ?? ""
        #expect(echo.contains("k%201+\(marker)") || echo.contains("k%201%2B\(marker)"), "httpbin echoed the value in the url field")
        let har = String(decoding: try capture.harData(), as: UTF8.self)
        #expect(!lines.text.contains(marker), "logger output leaks the secret")
        #expect(!har.contains(marker), "HAR leaks the secret")
    }
}
