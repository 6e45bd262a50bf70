import Foundation
import NetCore
@testable import NetPlugins
import Testing
import NetTestSupport

@Suite("RetryPlugin")
struct RetryPluginTests {
    private func run(
        _ target: TestTarget, statuses: [Int], plugin: RetryPlugin = RetryPlugin(baseDelay: .zero, jitter: false),
        maxAttempts: Int = 10
    ) async -> (Result<Response, NetworkError>, Int) {
        let calls = Counter()
        let transport = stub { request in
            let index = calls.increment() - 1
            return Response(statusCode: statuses[min(index, statuses.count - 1)], request: request)
        }
        let provider = Provider<TestTarget>(transport: transport, plugins: [plugin], configuration: ProviderConfiguration(maxAttempts: maxAttempts))
        do { return (.success(try await provider.request(target)), calls.count) } catch { return (.failure(error), calls.count) }
    }

    @Test(arguments: [408, 429, 500, 502, 503, 504])
    func retryableStatusesAreRetried(status: Int) async throws {
        let (result, calls) = await run(TestTarget(), statuses: [status, 200])
        #expect(calls == 2)
        #expect(try result.get().statusCode == 200)
    }

    @Test(arguments: [400, 401, 403, 404, 501])
    func otherStatusesAreNotRetried(status: Int) async {
        let (_, calls) = await run(TestTarget(), statuses: [status, 200])
        #expect(calls == 1)
    }

    @Test func atMostMaxRetriesAfterTheFirstAttempt() async {
        let (result, calls) = await run(TestTarget(), statuses: [503])
        #expect(calls == 3)
        #expect(result.failureStatus == 503)
    }

    @Test func providerMaxAttemptsCapsRetries() async {
        let (_, calls) = await run(TestTarget(), statuses: [503], plugin: RetryPlugin(maxRetries: 5, baseDelay: .zero, jitter: false), maxAttempts: 2)
        #expect(calls == 2)
    }

    @Test(arguments: [HTTPMethod.post, .patch])
    func nonIdempotentMethodsAreNotRetriedByDefault(method: HTTPMethod) async {
        var target = TestTarget()
        target.method = method
        let (_, calls) = await run(target, statuses: [503, 200])
        #expect(calls == 1)
    }

    @Test func configuredMethodsAndStatusesAreRetried() async {
        var target = TestTarget()
        target.method = .post
        let plugin = RetryPlugin(baseDelay: .zero, jitter: false, retryableMethods: [.post], retryableStatuses: [418])
        let (_, calls) = await run(target, statuses: [418, 200], plugin: plugin)
        #expect(calls == 2)
    }

    @Test func retryableStatusAcceptedByValidationIsRetriedToo() async {
        var target = TestTarget()
        target.validation = .none
        let (result, calls) = await run(target, statuses: [503, 200])
        #expect(calls == 2)
        #expect((try? result.get().statusCode) == 200)
    }

    @Test func transientTransportErrorsAreRetriedAndOthersAreNot() async {
        for (error, expectedCalls) in [(NetworkError.timedOut, 2), (.connectionLost(reason: "reset"), 2), (.tlsFailure(host: "h", reason: "bad"), 1)] {
            let calls = Counter()
            let transport = stub { request in
                if calls.increment() == 1 { throw error }
                return Response(statusCode: 200, request: request)
            }
            _ = try? await Provider<TestTarget>(transport: transport, plugins: [RetryPlugin(baseDelay: .zero, jitter: false)]).request(TestTarget())
            #expect(calls.count == expectedCalls, "\(error)")
        }
    }

    @Test func cancellationIsNeverRetried() async {
        let plugin = RetryPlugin(shouldRetry: { _, _ in true })
        let action = await plugin.failure(.cancelled, for: Request(url: URL(string: "https://a.example")!, target: TestTarget()))
        guard case .proceed = action else { Issue.record("cancellation was retried"); return }
    }

    @Test func backoffDoublesFromTheBaseAndIsCapped() {
        let plugin = RetryPlugin(baseDelay: .milliseconds(500), multiplier: 2, maxDelay: .seconds(3))
        #expect(plugin.backoff(after: 1) == .milliseconds(500))
        #expect(plugin.backoff(after: 2) == .seconds(1))
        #expect(plugin.backoff(after: 3) == .seconds(2))
        #expect(plugin.backoff(after: 4) == .seconds(3))
        #expect(plugin.backoff(after: 40) == .seconds(3))
    }

    @Test func fullJitterPicksBetweenZeroAndTheBackoff() {
        let low = RetryPlugin(random: { 0 })
        let mid = RetryPlugin(random: { 0.5 })
        let high = RetryPlugin(random: { 1 })
        #expect(low.delay(after: 2, response: nil) == .zero)
        #expect(mid.delay(after: 2, response: nil) == .milliseconds(500))
        #expect(high.delay(after: 2, response: nil) == .seconds(1))
    }

    @Test func retryAfterSecondsAndHTTPDateAreHonouredAndCapped() {
        let now = Date(timeIntervalSince1970: 784_111_777)  // Sun, 06 Nov 1994 08:49:37 GMT
        let plugin = RetryPlugin(maxRetryAfter: .seconds(10), random: { 0 }, now: { now })
        func response(_ value: String) -> Response {
            Response(statusCode: 503, headers: ["Retry-After": value], request: Request(url: URL(string: "https://a.example")!, target: TestTarget()))
        }
        #expect(plugin.delay(after: 1, response: response("3")) == .seconds(3))
        #expect(plugin.delay(after: 1, response: response("120")) == .seconds(10))
        #expect(plugin.delay(after: 1, response: response("Sun, 06 Nov 1994 08:49:42 GMT")) == .seconds(5))
        #expect(plugin.delay(after: 1, response: response("Sun, 06 Nov 1994 08:00:00 GMT")) == .zero)
        #expect(plugin.delay(after: 1, response: response("soon")) == .zero)  // unparsable: jittered backoff (random 0)
        let ignoring = RetryPlugin(honorsRetryAfter: false, random: { 1 })
        #expect(ignoring.delay(after: 1, response: response("3")) == .milliseconds(500))
    }

    @Test func httpDatesParseToTheRightInstant() {
        #expect(RetryAfter.httpDate("Sun, 06 Nov 1994 08:49:37 GMT")?.timeIntervalSince1970 == 784_111_777)
        #expect(RetryAfter.httpDate("Thu, 01 Jan 1970 00:00:00 GMT")?.timeIntervalSince1970 == 0)
        #expect(RetryAfter.httpDate("Tue, 29 Feb 2028 23:59:59 GMT")?.timeIntervalSince1970 == 1_835_481_599)
        #expect(RetryAfter.httpDate("Sun, 06 Nov 1994 08:49:37 PST") == nil)
    }
}

extension Result where Success == Response, Failure == NetworkError {
    var failureStatus: Int? {
        if case .failure(let error) = self { return error.statusCode }
        return nil
    }
}
