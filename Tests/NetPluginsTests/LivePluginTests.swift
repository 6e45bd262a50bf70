#if canImport(FoundationNetworking)
    import NetToolbox
    import FoundationNetworking
#endif
import Foundation
import NetCore
import NetPlugins
import Testing
import NetTestSupport

/// Plugins against the real loopback servers of `scripts/test` (httpbin, TLS nginx, fault server),
/// through `URLSessionTransport`. Every test is `.liveServers`: skipped when the servers are not
/// running, and failed when `NETKIT_REQUIRE_SERVERS=1`.
@Suite("Plugins against live servers")
struct LivePluginTests {
    private func endpoint(
        _ base: URL, _ path: String, query: Parameters = [:], method: HTTPMethod = .get,
        headers: [String: String] = [:]
    ) -> TestTarget {
        var target = TestTarget()
        target.baseURL = base
        target.path = path
        target.method = method
        target.headers = headers
        target.content = query.isEmpty ? .plain : .query(query)
        return target
    }

    private static func key() -> String { UUID().uuidString.prefix(8).lowercased() }

    // MARK: Logger and capture

    @Test(.liveServers) func loggerCaptureAndHARNeverContainSecretsSentToHTTPBin() async throws {
        let httpbin = try TestServers.require("NETKIT_HTTPBIN_URL")
        let secrets = ["Bearer-live-s3cret", "live-cookie-s3cret", "live-query-s3cret", "live-custom-s3cret"]
        let redaction = Redaction.default.adding(headers: ["X-Api-Key"])
        let lines = Lines()
        let logger = LoggerPlugin(verbosity: .verbose, includesCurlCommand: true, redaction: redaction, output: lines.sink)
        let compact = LoggerPlugin(redaction: redaction, output: lines.sink)
        let capture = CapturePlugin(redaction: redaction)
        let provider = Provider<TestTarget>(transport: URLSessionTransport(), plugins: [logger, compact, capture])
        let headers = ["Authorization": "Bearer Bearer-live-s3cret", "Cookie": "sid=live-cookie-s3cret", "X-Api-Key": "live-custom-s3cret"]
        // httpbin echoes request headers and query items back in its JSON bodies.
        let echoedHeaders = try await provider.request(endpoint(httpbin, "/headers", headers: headers))
        #expect(echoedHeaders.string()?.contains("live-custom-s3cret") == true, "httpbin should echo the secret, or this test proves nothing")
        _ = try await provider.request(endpoint(httpbin, "/get", query: ["access_token": "live-query-s3cret", "page": "1"], headers: headers))
        _ = try? await provider.request(endpoint(httpbin, "/status/418", query: ["token": "live-query-s3cret"], headers: headers))

        let har = String(decoding: try capture.harData(), as: UTF8.self)
        let captured = capture.exchanges.map { entry in
            [
                entry.url, entry.requestHeaders.description, entry.responseHeaders.description, entry.error ?? "",
                String(decoding: entry.responseBody, as: UTF8.self),
            ].joined(separator: "\n")
        }.joined(separator: "\n")
        #expect(capture.count == 3)
        #expect(lines.all.count == 12)
        for secret in secrets {
            #expect(!lines.joined.contains(secret), "log output contains \(secret)")
            #expect(!captured.contains(secret), "captured exchanges contain \(secret)")
            #expect(!har.contains(secret), "HAR contains \(secret)")
        }
        #expect(lines.joined.contains("page=1") && lines.joined.contains("<redacted>"))
    }

    @Test(.liveServers) func harOfLiveExchangesParsesBackFieldByField() async throws {
        let httpbin = try TestServers.require("NETKIT_HTTPBIN_URL")
        let capture = CapturePlugin()
        let provider = Provider<TestTarget>(transport: URLSessionTransport(), plugins: [capture])
        _ = try await provider.request(endpoint(httpbin, "/get", query: ["q": "net kit"]))
        var post = endpoint(httpbin, "/post", method: .post)
        post.content = .json(["name": "NetKit"])
        _ = try await provider.request(post)
        _ = try? await provider.request(endpoint(httpbin, "/status/404"))

        let document = try JSONSerialization.jsonObject(with: try capture.harData()) as? [String: Any]
        let log = try #require(document?["log"] as? [String: Any])
        #expect(log["version"] as? String == "1.2")
        let entries = try #require(log["entries"] as? [[String: Any]])
        #expect(entries.count == 3)
        for entry in entries { HARFields.check(entry) }

        let get = try #require(entries[0]["request"] as? [String: Any])
        #expect(get["method"] as? String == "GET")
        #expect(get["url"] as? String == httpbin.absoluteString + "/get?q=net%20kit" || get["url"] as? String == httpbin.absoluteString + "/get?q=net+kit")
        #expect((get["queryString"] as? [[String: String]])?.first?["name"] == "q")
        let getResponse = try #require(entries[0]["response"] as? [String: Any])
        #expect(getResponse["status"] as? Int == 200 && getResponse["statusText"] as? String == "OK")
        let content = try #require(getResponse["content"] as? [String: Any])
        #expect(content["mimeType"] as? String == "application/json")
        let text = try #require(content["text"] as? String)
        #expect(content["size"] as? Int == text.utf8.count)
        let echoed = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        #expect((echoed?["args"] as? [String: String])?["q"] == "net kit")
        #expect(((getResponse["headers"] as? [[String: String]]) ?? []).contains { $0["name"]?.lowercased() == "content-type" })

        let postRequest = try #require(entries[1]["request"] as? [String: Any])
        #expect(postRequest["method"] as? String == "POST")
        let postData = try #require(postRequest["postData"] as? [String: Any])
        #expect(postData["mimeType"] as? String == "application/json")
        #expect(postData["text"] as? String == #"{"name":"NetKit"}"#)
        #expect(postRequest["bodySize"] as? Int == 17)

        let notFound = try #require(entries[2]["response"] as? [String: Any])
        #expect(notFound["status"] as? Int == 404 && notFound["statusText"] as? String == "Not Found")
        #expect((entries[2]["_error"] as? String)?.contains("404") == true)
    }

    // MARK: Retry

    /// Records when each attempt was handed to the transport.
    final class AttemptClock: Plugin, Sendable {
        private let starts = Locked<[ContinuousClock.Instant]>([])
        private let ends = Locked<[ContinuousClock.Instant]>([])
        var attempts: Int { starts.withLock { $0.count } }
        /// The pause between the end of attempt n and the start of attempt n + 1.
        var gaps: [Duration] {
            let (starts, ends) = (starts.withLock { $0 }, ends.withLock { $0 })
            return zip(ends, starts.dropFirst()).map { $1 - $0 }
        }
        func willSend(_ request: Request) async -> SendAction {
            starts.withLock { $0.append(.now) }
            return .proceed
        }
        func succeed(_ response: Response, for request: Request) async -> SucceedAction {
            ends.withLock { $0.append(.now) }
            return .proceed
        }
        func failure(_ error: NetworkError, for request: Request) async -> FailureAction {
            ends.withLock { $0.append(.now) }
            return .proceed
        }
    }

    @Test(.liveServers) func retriesHTTPBin503UpToMaxRetriesThenFails() async throws {
        let httpbin = try TestServers.require("NETKIT_HTTPBIN_URL")
        let clock = AttemptClock()
        let provider = Provider<TestTarget>(
            transport: URLSessionTransport(),
            plugins: [clock, RetryPlugin(baseDelay: .milliseconds(10))])
        await #expect {
            _ = try await provider.request(endpoint(httpbin, "/status/503"))
        } throws: { error in (error as? NetworkError)?.statusCode == 503 }
        #expect(clock.attempts == 3)
    }

    @Test(.liveServers) func flakyEndpointSucceedsAfterRetries() async throws {
        let fault = try TestServers.require("NETKIT_FAULT_URL")
        let clock = AttemptClock()
        let provider = Provider<TestTarget>(
            transport: URLSessionTransport(), plugins: [clock, RetryPlugin(maxRetries: 3)],
            configuration: ProviderConfiguration(maxAttempts: 5))
        let response = try await provider.request(endpoint(fault, "/flaky", query: ["key": Self.key(), "fail": 2]))
        let body = try JSONSerialization.jsonObject(with: response.data) as? [String: Any]
        #expect(body?["attempts"] as? Int == 3)
        #expect(clock.attempts == 3)
    }

    @Test(.liveServers, arguments: ["/retry-after/seconds", "/retry-after/date"])
    func retryAfterFromTheServerIsHonoured(path: String) async throws {
        let fault = try TestServers.require("NETKIT_FAULT_URL")
        let clock = AttemptClock()
        // The backoff alone would be at most 1 ms: any longer wait comes from Retry-After.
        let retry = RetryPlugin(maxRetries: 1, baseDelay: .milliseconds(1), maxDelay: .milliseconds(1))
        let provider = Provider<TestTarget>(transport: URLSessionTransport(), plugins: [clock, retry])
        _ = try? await provider.request(endpoint(fault, path, query: ["n": 1]))
        #expect(clock.attempts == 2)
        let gap = try #require(clock.gaps.first)
        #expect(gap >= .milliseconds(900), "waited only \(gap) although Retry-After asked for 1 s")
    }

    @Test(.liveServers) func longRetryAfterIsCapped() async throws {
        let fault = try TestServers.require("NETKIT_FAULT_URL")
        let clock = AttemptClock()
        let retry = RetryPlugin(maxRetries: 1, maxRetryAfter: .milliseconds(100))
        let provider = Provider<TestTarget>(transport: URLSessionTransport(), plugins: [clock, retry])
        _ = try? await provider.request(endpoint(fault, "/retry-after/seconds", query: ["n": 30, "status": 429]))
        #expect(clock.attempts == 2)
        let gap = try #require(clock.gaps.first)
        #expect(gap < .seconds(5), "Retry-After: 30 was not capped (waited \(gap))")
    }

    // MARK: Auth

    @Test(.liveServers) func fiftyConcurrentRequestsShareOneTokenRefreshOnTheFaultServer() async throws {
        let fault = try TestServers.require("NETKIT_FAULT_URL")
        let key = Self.key()
        let tokenProvider = Provider<TestTarget>(transport: URLSessionTransport())
        let tokenEndpoint = endpoint(fault, "/auth/token", query: ["key": key], method: .post)
        let auth = AuthPlugin(
            token: { "never-issued" },
            refresh: {
                try await tokenProvider.request(tokenEndpoint, as: [String: String].self, atKeyPath: nil)["token"] ?? ""
            })
        let provider = Provider<TestTarget>(transport: URLSessionTransport(), plugins: [auth])
        let protected = endpoint(fault, "/auth/protected", query: ["key": key])
        let tokens = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<50 {
                group.addTask {
                    let body = try await provider.request(protected).json() as? [String: Any]
                    return body?["token"] as? String ?? ""
                }
            }
            return try await group.reduce(into: [String]()) { $0.append($1) }
        }
        #expect(tokens.count == 50)
        #expect(Set(tokens) == ["fresh-1"])
        let count = try await tokenProvider.request(endpoint(fault, "/auth/refresh-count", query: ["key": key])).json() as? [String: Any]
        #expect(count?["count"] as? Int == 1)
        #expect(auth.refreshCount == 1)
    }

    @Test(.liveServers) func aFailingRefreshEndpointFailsRequestsWithAnAuthError() async throws {
        let fault = try TestServers.require("NETKIT_FAULT_URL")
        let tokenProvider = Provider<TestTarget>(transport: URLSessionTransport())
        let broken = endpoint(fault, "/status/500", method: .post)
        let auth = AuthPlugin(token: { "never-issued" }, refresh: { try await tokenProvider.request(broken).string() ?? "" })
        let provider = Provider<TestTarget>(transport: URLSessionTransport(), plugins: [auth])
        await #expect {
            _ = try await provider.request(endpoint(fault, "/auth/protected", query: ["key": Self.key()]))
        } throws: { error in
            guard case .pluginFailed("AuthPlugin", let reason, _)? = error as? NetworkError else { return false }
            return reason.contains("500")
        }
    }

    // MARK: Pinning

    @Test(.liveServers) func pinHelperMatchesTheServersPin() throws {
        let values = try TestServers.requireValues("NETKIT_TLS_CERT", "NETKIT_TLS_PIN")
        let (certificate, pin) = (values[0], values[1])
        #expect(try PinningPlugin.pin(ofCertificateAt: URL(fileURLWithPath: certificate)) == pin)
    }

    @Test(.liveServers) func pinnedRequestThroughURLSessionTransportFailsClosedAgainstTLSNginx() async throws {
        let tls = try TestServers.require("NETKIT_TLS_URL")
        let pin = try TestServers.requireValue("NETKIT_TLS_PIN")
        let plugin = PinningPlugin([try .init(host: tls.host ?? "127.0.0.1", keyHashes: [pin])])
        let provider = Provider<TestTarget>(transport: URLSessionTransport(), plugins: [plugin])
        await #expect {
            _ = try await provider.request(endpoint(tls, "/small.json"))
        } throws: { error in
            guard case .tlsPolicyUnsupported("URLSessionTransport", _)? = error as? NetworkError else { return false }
            return true
        }
    }

    @Test(.liveServers) func urlSessionTransportNeverSendsARequestCarryingATLSPolicy() async throws {
        let fault = try TestServers.require("NETKIT_FAULT_URL")
        let key = Self.key()
        let transport = URLSessionTransport()
        var flaky = URLComponents(url: fault.appendingPathComponent("flaky"), resolvingAgainstBaseURL: false)!
        flaky.queryItems = [URLQueryItem(name: "key", value: key), URLQueryItem(name: "fail", value: "0")]
        let pinned = Request(url: flaky.url!, tls: TLSPolicy(pinnedKeyHashes: [PinningPluginTests.certificatePin]), target: TestTarget())
        await #expect {
            _ = try await transport.send(pinned)
        } throws: { error in
            guard case .tlsPolicyUnsupported = error as? NetworkError else { return false }
            return true
        }
        // The fault server counts requests per key: the pinned one must not have arrived.
        let response = try await transport.send(Request(url: flaky.url!, target: TestTarget()))
        let body = try JSONSerialization.jsonObject(with: response.data) as? [String: Any]
        #expect(body?["attempts"] as? Int == 1)
    }
}
