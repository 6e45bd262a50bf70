import NetToolbox
import Foundation
import NetCore
import NetCurl
import NetPlugins
import Testing
import NetTestSupport

/// Pins fail closed on every path a request can take after the first attempt: a retry, a
/// redirect, a cache revalidation. Over `URLSessionTransport` (no custom trust on Linux) every
/// pinned request fails with `.tlsPolicyUnsupported` before anything is sent.
@Suite(.liveServers, .serialized)
struct SecurityPathTests {
    /// A request to the TLS nginx (or any other base URL).
    struct SecureTarget: TargetType {
        var base: URL
        var path: String
        var baseURL: URL { base }
        var method: HTTPMethod { .get }
        var content: RequestContent { .plain }
        var timeout: Duration? { .seconds(5) }
    }

    /// What every attempt carried and how it ended, as the last plugin sees it.
    final class AttemptLog: Plugin {
        struct Entry: Sendable {
            var attempt: Int
            var pins: [String]?
            var ifNoneMatch: String?
            var error: NetworkError?
        }

        private let entries = Locked<[Entry]>([])
        var all: [Entry] { entries.withLock { $0 } }

        func succeed(_ response: Response, for request: Request) async -> SucceedAction {
            record(request, error: nil)
            return .proceed
        }

        func failure(_ error: NetworkError, for request: Request) async -> FailureAction {
            record(request, error: error)
            return .proceed
        }

        private func record(_ request: Request, error: NetworkError?) {
            let entry = Entry(
                attempt: request.attempt, pins: request.tls?.pinnedKeyHashes,
                ifNoneMatch: request.headers["If-None-Match"], error: error)
            entries.withLock { $0.append(entry) }
        }
    }

    /// A well-formed pin that matches no key.
    static let wrongPin = Data(repeating: 0x5A, count: 32).base64EncodedString()

    static func tlsServer() throws -> (url: URL, pin: String, certificate: Data) {
        let url = try TestServers.require("NETKIT_TLS_URL")
        // The pin (base64) and the certificate path are not URLs: read them as they are.
        let pin = try TestServers.requireValue("NETKIT_TLS_PIN")
        let certificatePath = try TestServers.requireValue("NETKIT_TLS_CERT")
        return (url, pin, try Data(contentsOf: URL(fileURLWithPath: certificatePath)))
    }

    /// Pins 127.0.0.1 to `pin`, trusting the self-signed test certificate.
    static func pinning(_ pin: String, certificate: Data) throws -> PinningPlugin {
        PinningPlugin([try PinningPlugin.Pin(host: "127.0.0.1", keyHashes: [pin], certificates: [certificate])])
    }

    /// Whether `error` is how `kind` refuses a pinned request: curl checks the pin and fails with
    /// `.pinningFailed` (`.tlsPolicyUnsupported` for URLSession, which cannot enforce pins).
    static func isPinRefusal(_ error: NetworkError?, _ kind: TransportKind) -> Bool {
        switch (kind, error) {
        case (.curl, .pinningFailed?), (.urlSession, .tlsPolicyUnsupported?): true
        default: false
        }
    }

    // MARK: Retries

    @Test(
        "A pinned request retried by RetryPlugin is pinned on every attempt and fails closed",
        arguments: TransportKind.allCases)
    func retriedRequestStaysPinned(kind: TransportKind) async throws {
        let server = try Self.tlsServer()
        let log = AttemptLog()
        // A retry plugin that retries anything, pinning failures included: still no unpinned attempt.
        let retry = RetryPlugin(maxRetries: 2, baseDelay: .milliseconds(10), shouldRetry: { _, _ in true })
        let provider = Provider<SecureTarget>(
            transport: kind.make(),
            plugins: [try Self.pinning(Self.wrongPin, certificate: server.certificate), retry, log])
        var finalError: NetworkError?
        do {
            let response = try await provider.request(SecureTarget(base: server.url, path: "/small.json"))
            Issue.record("a wrong pin was accepted: \(response.statusCode)")
        } catch {
            finalError = error
        }
        #expect(Self.isPinRefusal(finalError, kind), "ended with \(String(describing: finalError))")
        let entries = log.all
        #expect(entries.map(\.attempt) == [1, 2, 3])
        for entry in entries {
            #expect(entry.pins == [Self.wrongPin], "attempt \(entry.attempt) carried \(String(describing: entry.pins))")
            #expect(Self.isPinRefusal(entry.error, kind), "attempt \(entry.attempt) ended with \(String(describing: entry.error))")
        }

        // The same request with the right pin: curl fetches it (the wrong pin was the only reason
        // it failed); URLSession still refuses, whatever the pin.
        let pinned = Provider<SecureTarget>(transport: kind.make(), plugins: [try Self.pinning(server.pin, certificate: server.certificate)])
        switch kind {
        case .curl:
            let response = try await pinned.request(SecureTarget(base: server.url, path: "/small.json"))
            #expect(response.statusCode == 200 && response.data.count == 95)
        case .urlSession:
            await #expect { _ = try await pinned.request(SecureTarget(base: server.url, path: "/small.json")) } throws: {
                Self.isPinRefusal($0 as? NetworkError, kind)
            }
        }
    }

    @Test("A request URLSession cannot pin never reaches the server, not even on a retry")
    func urlSessionNeverSendsAPinnedRequest() async throws {
        _ = try TestServers.require("NETKIT_FAULT_URL")
        let key = "pinned-\(UUID().uuidString)"
        let target = FaultTarget(path: "/load", query: ["key": key])
        let retry = RetryPlugin(maxRetries: 2, baseDelay: .milliseconds(10), shouldRetry: { _, _ in true })
        let log = AttemptLog()
        let pinned = Provider<FaultTarget>(transport: URLSessionTransport(), plugins: [AttachPin(), retry, log])
        await #expect { _ = try await pinned.request(target) } throws: { error in
            guard case .tlsPolicyUnsupported = error as? NetworkError else { return false }
            return true
        }
        #expect(log.all.count == 3)
        // /load counts requests per key: the first request the server ever saw is this one.
        let response = try await Provider<FaultTarget>(transport: URLSessionTransport()).request(target)
        #expect(try response.decode(LoadTests.Echoed.self).attempts == 1)
    }

    @Test("A TLS policy on a plain-http URL is never sent in the clear", arguments: TransportKind.allCases)
    func policyOnPlainHTTPFailsClosed(kind: TransportKind) async throws {
        _ = try TestServers.require("NETKIT_FAULT_URL")
        let key = "cleartext-\(UUID().uuidString)"
        let target = FaultTarget(path: "/load", query: ["key": key])
        let pinned = Provider<FaultTarget>(transport: kind.make(), plugins: [AttachPin()])
        let outcome: Result<Response, NetworkError>
        do {
            outcome = .success(try await pinned.request(target))
        } catch {
            outcome = .failure(error)
        }
        let seen = try await Provider<FaultTarget>(transport: kind.make()).request(target).decode(LoadTests.Echoed.self).attempts - 1
        // PinningPlugin attaches policies to https requests only, so this takes a plugin that
        // attaches one itself; the transport contract still says: enforce it or do not send.
        #expect(seen == 0, "the server received the pinned request \(seen) time(s) over plain http (outcome: \(outcome))")
        guard case .failure = outcome else {
            Issue.record("the pinned plain-http request succeeded")
            return
        }
    }

    // MARK: Redirects

    @Test("A pinned https request redirected to plain http is refused", arguments: TransportKind.allCases)
    func redirectToHTTPIsRefused(kind: TransportKind) async throws {
        let server = try Self.tlsServer()
        let provider = Provider<SecureTarget>(
            transport: kind.make(),
            plugins: [try Self.pinning(server.pin, certificate: server.certificate)])
        await #expect { _ = try await provider.request(SecureTarget(base: server.url, path: "/to-http")) } throws: { error in
            switch (kind, error as? NetworkError) {
            case (.curl, .redirectRefused?), (.urlSession, .tlsPolicyUnsupported?): true
            default: false
            }
        }
    }

    @Test("A pinned request is not downgraded even where downgrades are allowed")
    func pinnedRequestIsNotDowngradedWhenAllowed() async throws {
        let server = try Self.tlsServer()
        // The transport allows https -> http redirects in general; a pinned request must still
        // not continue over plain http, where its pin means nothing.
        let permissive = CurlTransport(configuration: .init(redirectPolicy: RedirectPolicy(allowsDowngrade: true)))
        let provider = Provider<SecureTarget>(transport: permissive, plugins: [try Self.pinning(server.pin, certificate: server.certificate)])
        let outcome: Result<Response, NetworkError>
        do {
            outcome = .success(try await provider.request(SecureTarget(base: server.url, path: "/to-http")))
        } catch {
            outcome = .failure(error)
        }
        guard case .failure(let error) = outcome else {
            Issue.record("the pinned request was followed to plain http: \(outcome)")
            return
        }
        #expect({ if case .redirectRefused = error { true } else { false } }(), "ended with \(error)")
    }

    // MARK: Cache

    /// `.revalidate` sends the stored validators, `.networkElseCache` falls back to the cache when
    /// offline: with a wrong pin both must fail with the pin error. A cached copy is never served
    /// in place of a request that failed its pin (that would hide an attack behind old data), and
    /// the revalidation request carries the policy like any other.
    @Test(
        "A cached entry never covers for a request that fails its pin",
        arguments: TransportKind.allCases, [CachePolicy.revalidate, .networkElseCache])
    func cacheNeverHidesAPinFailure(kind: TransportKind, policy: CachePolicy) async throws {
        let server = try Self.tlsServer()
        let storage = MemoryStorage()
        let target = SecureTarget(base: server.url, path: "/small.json")
        // Seed the cache over a correctly pinned curl connection (the only transport that can).
        let seeding = Provider<SecureTarget>(
            transport: CurlTransport(),
            plugins: [
                try Self.pinning(server.pin, certificate: server.certificate), CachePlugin(storage: CacheStorage(storage), policy: policy),
            ])
        let first = try await seeding.request(target)
        #expect(first.source == .network && storage.count == 1)
        if policy == .revalidate {
            // Control: nginx answers the validators with 304, so revalidation really happens here.
            let second = try await seeding.request(target)
            #expect(second.source == .cache && second.data == first.data)
        }

        let log = AttemptLog()
        let attacked = Provider<SecureTarget>(
            transport: kind.make(),
            plugins: [
                try Self.pinning(Self.wrongPin, certificate: server.certificate), CachePlugin(storage: CacheStorage(storage), policy: policy), log,
            ])
        do {
            let response = try await attacked.request(target)
            Issue.record("served \(response.source) despite a wrong pin")
        } catch {
            #expect(Self.isPinRefusal(error, kind), "ended with \(error)")
        }
        let attempt = try #require(log.all.first)
        #expect(attempt.pins == [Self.wrongPin])
        if policy == .revalidate {
            #expect(attempt.ifNoneMatch != nil, "the revalidation request did not carry the stored ETag")
        }
        #expect(storage.count == 1, "the stored entry survives a refused request")
    }
}
