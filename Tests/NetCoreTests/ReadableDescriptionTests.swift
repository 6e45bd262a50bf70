import Foundation
import NetCore
import NetTestSupport
import Testing

/// `print(response)`, `print(request)` and a call's final error read as one short line, with
/// secrets redacted and, for an error about a response, the number of attempts said.
@Suite("Readable descriptions")
struct ReadableDescriptionTests {
    private static let secretURL = URL(string: "https://user:hunter2@api.example.com/users/1?token=s3cr3t&page=2")!

    private func request(_ url: URL = URL(string: "https://api.example.com/users/1")!, attempt: Int = 1) -> Request {
        Request(
            url: url, headers: ["Authorization": "Bearer s3cr3t"], body: .data(Data(#"{"password":"s3cr3t"}"#.utf8)),
            attempt: attempt, target: TestTarget())
    }

    private func metrics(_ duration: Duration) -> ResponseMetrics {
        ResponseMetrics(startDate: Date(), duration: duration)
    }

    @Test("a response is status, method, URL, size and time")
    func response() {
        let response = Response(
            statusCode: 200, data: Data(repeating: 65, count: 95), request: request(), metrics: metrics(.milliseconds(12)))
        #expect(response.description == "200 GET https://api.example.com/users/1 (95 bytes, 12 ms)")
        #expect("\(response)" == response.description)
    }

    @Test("times under 10 ms keep one decimal; no metrics, no time")
    func shortTimes() {
        let fast = Response(statusCode: 204, request: request(), metrics: metrics(.microseconds(3420)))
        #expect(fast.description == "204 GET https://api.example.com/users/1 (0 bytes, 3.4 ms)")
        let unmeasured = Response(statusCode: 200, data: Data([1]), request: request())
        #expect(unmeasured.description == "200 GET https://api.example.com/users/1 (1 byte)")
    }

    @Test("a cached, stubbed, retried or downloaded response says so")
    func sourcesAttemptsAndDownloads() {
        var cached = Response(statusCode: 200, data: Data(count: 3), request: request())
        cached.source = .cache
        #expect(cached.description == "200 GET https://api.example.com/users/1 (3 bytes, from cache)")
        let stubbed = Response(statusCode: 200, request: request(), source: .stub)
        #expect(stubbed.description == "200 GET https://api.example.com/users/1 (0 bytes, stub)")
        let retried = Response(statusCode: 503, request: request(attempt: 3), metrics: metrics(.milliseconds(40)))
        #expect(retried.description == "503 GET https://api.example.com/users/1 (0 bytes, 40 ms, attempt 3)")
        let downloaded = Response(statusCode: 200, request: request(), fileURL: URL(fileURLWithPath: "/tmp/report.pdf"))
        #expect(downloaded.description == "200 GET https://api.example.com/users/1 (saved to /tmp/report.pdf)")
    }

    @Test("descriptions never show credentials, header values or bodies")
    func redacted() {
        let secretRequest = request(Self.secretURL)
        let response = Response(
            statusCode: 200, headers: ["Set-Cookie": "session=s3cr3t"], data: Data(#"{"token":"s3cr3t"}"#.utf8),
            request: secretRequest)
        for text in [secretRequest.description, response.description, "\([response])"] {
            #expect(!text.contains("s3cr3t"), "\(text)")
            #expect(!text.contains("hunter2"), "\(text)")
            #expect(text.contains("page=2"), "\(text)")
        }
        #expect(secretRequest.description == "GET https://api.example.com/users/1?token=%3Credacted%3E&page=2")
    }

    @Test("a result prints as its response, not as a dump of the types")
    func result() {
        let result: Result<Response, NetworkError> = .success(Response(statusCode: 200, request: request()))
        let text = "\(result)"
        #expect(text == "success(200 GET https://api.example.com/users/1 (0 bytes))")
        #expect(!text.contains("NetCore."))
    }

    private func retryingProvider(maxAttempts: Int = 3) -> Provider<TestTarget> {
        var retry = RecordingPlugin("Retry", Recorder())
        retry.onFailure = { _, _ in .retry(after: .zero) }
        return Provider(transport: StubTransport(), plugins: [retry], configuration: ProviderConfiguration(maxAttempts: maxAttempts))
    }

    @Test("a final transport error after retries keeps its reason; the attempt count is the last event's data")
    func transportErrorKeepsReason() async {
        let target = TestTarget(sampleResponse: .failure(.connectionFailed(host: "api.example.com", reason: "refused")))
        let log = EventLog()
        var retry = RecordingPlugin("Retry", Recorder())
        retry.onFailure = { _, _ in .retry(after: .zero) }
        var configuration = ProviderConfiguration(maxAttempts: 3)
        configuration.eventObservers = [log]
        let provider = Provider<TestTarget>(transport: StubTransport(), plugins: [retry], configuration: configuration)
        let error = await outcome { try await provider.request(target) }.failure
        #expect(error?.description == "Could not connect to api.example.com: refused. Is the server running and reachable?")
        guard case .connectionFailed(let host, let reason, _)? = error else {
            Issue.record("the case stays the same: \(String(describing: error))")
            return
        }
        #expect(host == "api.example.com")
        #expect(reason == "refused")
        #expect(log.lines.last == "3:ended connectionFailed")
    }

    @Test("a final unaccepted status after retries names the attempts from its response")
    func statusErrorCountsAttempts() async {
        let target = TestTarget(sampleResponse: SampleResponse(statusCode: 503))
        let error = await outcome { try await retryingProvider(maxAttempts: 4).request(target) }.failure
        #expect(error?.response?.request.attempt == 4)
        #expect(error?.description.hasPrefix("Status 503 is not accepted for GET https://api.example.com/items after 4 attempts.") == true)
    }

    @Test("a call that made one attempt says nothing about attempts")
    func singleAttempt() async {
        let target = TestTarget(sampleResponse: .failure(.connectionFailed(host: "api.example.com", reason: "refused")))
        let error = await outcome { try await Provider<TestTarget>(transport: StubTransport()).request(target) }.failure
        #expect(error?.description == "Could not connect to api.example.com: refused. Is the server running and reachable?")
        let status = await outcome {
            try await Provider<TestTarget>(transport: StubTransport()).request(TestTarget(sampleResponse: SampleResponse(statusCode: 503)))
        }.failure
        #expect(status?.description.contains("attempt") == false)
    }
}
