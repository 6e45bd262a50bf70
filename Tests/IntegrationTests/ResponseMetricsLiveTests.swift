#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import Foundation
import NetTestSupport
import NetCore
import NetCurl
import NetPlugins
import Testing

/// `ResponseMetrics` phases and the call's events against live servers, once per transport.
@Suite(.liveServers)
struct ResponseMetricsLiveTests {
    private func provider(_ transport: any Transport, plugins: [any Plugin] = [], log: EventLog) throws -> Provider<HTTPBin> {
        _ = try TestServers.require("NETKIT_HTTPBIN_URL")
        var configuration = ProviderConfiguration()
        configuration.eventObservers = [log]
        return Provider(transport: transport, plugins: plugins, configuration: configuration)
    }

    @Test("A response's metrics name the peer, and a second call on the same transport reuses the connection", arguments: TransportKind.allCases)
    func peerAndReuse(kind: TransportKind) async throws {
        let transport = kind.make()
        let provider = try provider(transport, log: EventLog())
        let first = try #require(try await provider.request(.get([:])).metrics)
        let second = try #require(try await provider.request(.get([:])).metrics)
        let port = try #require(TestServers.httpbin?.port)
        for metrics in [first, second] {
            #expect(metrics.attempt == 1 && metrics.redirectCount == 0)
            // URLSession fills what its platform measures; what it gives must be right.
            #expect(metrics.remoteAddress == nil || metrics.remoteAddress == "127.0.0.1")
            #expect(metrics.remotePort == nil || metrics.remotePort == port)
            #expect(metrics.tlsHandshakeDuration == nil, "plain http has no TLS handshake")
            if let firstByte = metrics.timeToFirstByte { #expect(firstByte <= metrics.duration) }
        }
        guard kind == .curl else { return }
        #expect(first.remoteAddress == "127.0.0.1" && first.remotePort == port)
        #expect(first.httpVersion == "HTTP/1.1")
        #expect(first.dnsDuration != nil && first.requestStartDuration != nil && first.transferDuration != nil)
        #expect(first.isReusedConnection == false)
        #expect(second.isReusedConnection == true)
    }

    @Test("The curl transport measures the TLS handshake of an https exchange")
    func tlsHandshake() async throws {
        let url = try TestServers.require("NETKIT_TLS_URL")
        let pin = try TestServers.requireValue("NETKIT_TLS_PIN")
        let certificate = try Data(contentsOf: URL(fileURLWithPath: try TestServers.requireValue("NETKIT_TLS_CERT")))
        let pinning = PinningPlugin([try .init(host: "127.0.0.1", keyHashes: [pin], certificates: [certificate])])
        let response = try await Provider<HostileTarget>(transport: CurlTransport(), plugins: [pinning])
            .request(HostileTarget(path: "/small.json", base: url))
        let metrics = try #require(response.metrics)
        let handshake = try #require(metrics.tlsHandshakeDuration)
        #expect(handshake > .zero && handshake <= metrics.duration)
        #expect(metrics.remotePort == url.port)
    }

    @Test("Followed redirects are counted in the metrics and reported one event each", arguments: TransportKind.allCases)
    func redirects(kind: TransportKind) async throws {
        let log = EventLog()
        let response = try await provider(kind.make(), log: log).request(.path("/redirect/2"))
        #expect(response.statusCode == 200)
        #expect(response.metrics?.redirectCount == 2)
        #expect(log.lines.filter { $0.contains("redirect") } == ["1:redirect 302 /relative-redirect/1", "1:redirect 302 /get"])
        #expect(log.lines.last == "1:ended 200")
    }

    @Test("A call retried by RetryPlugin reports each attempt, the retry and one end; the last metrics say attempt 2", arguments: TransportKind.allCases)
    func retried(kind: TransportKind) async throws {
        let log = EventLog()
        let retry = RetryPlugin(maxRetries: 1, baseDelay: .milliseconds(1), retryableStatuses: [503])
        let provider = try provider(kind.make(), plugins: [retry], log: log)
        let error = await #expect(throws: NetworkError.self) { try await provider.request(.status(503)) }
        guard case .unacceptableStatus(let response)? = error else {
            Issue.record("expected a 503, got \(String(describing: error))")
            return
        }
        #expect(response.metrics?.attempt == 2)
        #expect(
            log.lines.filter { !$0.contains("retry") } == [
                "1:started", "1:attempt", "1:failure unacceptableStatus", "2:attempt", "2:failure unacceptableStatus",
                "2:ended unacceptableStatus",
            ])
        #expect(log.lines.filter { $0.contains("retry") }.count == 1)
    }

    @Test("A cache miss, then a hit, then a revalidation by a 304 are reported", arguments: TransportKind.allCases)
    func cacheEvents(kind: TransportKind) async throws {
        let log = EventLog()
        let cache = CachePlugin(storage: .memory(), policy: .revalidate)
        let provider = try provider(kind.make(), plugins: [cache], log: log)
        _ = try await provider.request(.path("/etag/abc"))
        _ = try await provider.request(.path("/etag/abc"))
        let lines = log.lines.filter { $0.contains("cache") }
        #expect(lines == ["1:cache miss", "1:cache revalidated"])
        let hits = EventLog()
        let elseNetwork = try self.provider(kind.make(), plugins: [CachePlugin(storage: .memory(), policy: .cacheElseNetwork)], log: hits)
        _ = try await elseNetwork.request(.get(["k": "1"]))
        _ = try await elseNetwork.request(.get(["k": "1"]))
        #expect(hits.lines.filter { $0.contains("cache") } == ["1:cache miss", "1:cache hit"])
    }
}
