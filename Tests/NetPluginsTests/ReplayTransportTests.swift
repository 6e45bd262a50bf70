import NetToolbox
import Foundation
import NetCore
import NetPlugins
import Testing
import NetTestSupport

@Suite("ReplayTransport")
struct ReplayTransportTests {
    // MARK: Helpers

    private func browserReplay(matching: ReplayMatcher = .methodAndURL) throws -> ReplayTransport {
        try ReplayTransport(harData: BrowserHARFixture.data, name: BrowserHARFixture.name, matching: matching)
    }

    private func request(_ method: HTTPMethod = .get, _ url: String, headers: HTTPHeaders = [:], body: String? = nil) -> Request {
        Request(
            method: method, url: URL(string: url)!, headers: headers, body: body.map { .data(Data($0.utf8)) } ?? .none,
            target: TestTarget())
    }

    private func send(_ transport: ReplayTransport, _ request: Request) async throws(NetworkError) -> Response {
        do {
            return try await transport.send(request)
        } catch {
            throw NetworkError(error)
        }
    }

    private func temporaryHAR() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("replay-\(UUID().uuidString)/session.har")
    }

    private func target(
        _ path: String, method: HTTPMethod = .get, content: RequestContent = .plain,
        headers: [String: String] = [:]
    ) -> TestTarget {
        var target = TestTarget()
        target.baseURL = URL(string: "https://api.example.com")!
        target.path = path
        target.method = method
        target.content = content
        target.headers = headers
        return target
    }

    // MARK: Browser HAR

    @Test func loadsABrowserExportedHAR() throws {
        let replay = try browserReplay()
        let exchanges = replay.recordedExchanges
        #expect(exchanges.map(\.method) == [.get, .get, .post, .get])
        #expect(exchanges.map(\.statusCode) == [200, 200, 201, 200])
        #expect(exchanges[0].requestHeaders["accept"] == "application/json")
        #expect(!exchanges[0].requestHeaders.contains(":authority"))
        #expect(exchanges[2].requestBody == Data(#"{"sku":"R-42","quantity":2}"#.utf8))
        #expect(exchanges[3].responseBody == BrowserHARFixture.pngBytes)
        #expect(replay.unusedExchanges.count == 4)
    }

    @Test func defaultMatchingIgnoresQueryOrderAndFragment() async throws {
        let replay = try browserReplay()
        let response = try await send(replay, request(.get, "https://SHOP.example.com:443/api/search?sort=price&page=2&q=red+shoes#results"))
        #expect(response.statusCode == 200)
        #expect(response.source == .stub)
        #expect(response.headers["x-request-id"] == "first")
        #expect(response.string() == #"{"page":2,"results":["red sneaker"]}"#)
        // The body is recorded decoded: the wire encoding headers do not describe it any more.
        #expect(response.headers["Content-Encoding"] == nil && response.headers["Content-Length"] == nil)
        let metrics = try #require(response.metrics)
        #expect(metrics.duration == .microseconds(84_210))
        #expect(metrics.connectDuration == .microseconds(1_200))
        #expect(metrics.httpVersion == "http/2.0")

        // Names and values must match: another page is not the recorded one.
        await #expect(throws: NetworkError.self) {
            try await send(replay, request(.get, "https://shop.example.com/api/search?sort=price&page=3&q=red+shoes"))
        }
        await #expect(throws: NetworkError.self) {
            try await send(replay, request(.get, "https://shop.example.com/api/search?sort=price&page=2&q=red+shoes&extra=1"))
        }
    }

    @Test func repeatedRequestsAreAnsweredInRecordedOrderThenTheLastRepeats() async throws {
        let replay = try browserReplay()
        let url = "https://shop.example.com/api/search?q=red%20shoes&page=2&sort=price"
        var ids: [String?] = []
        for _ in 0..<3 { ids.append(try await send(replay, request(.get, url)).headers["x-request-id"]) }
        #expect(ids == ["first", "second", "second"])
        #expect(replay.unusedExchanges.map(\.index) == [2, 3])
    }

    @Test func aBase64BodyReplaysAsBytes() async throws {
        let replay = try browserReplay()
        let response = try await send(replay, request(.get, "https://shop.example.com/static/logo.png"))
        #expect(response.data == BrowserHARFixture.pngBytes)
        #expect(response.headers["Content-Type"] == "image/png")
        #expect(response.metrics?.duration == .microseconds(12_500))
    }

    @Test func aRequestWithoutARecordingNamesItselfAndTheClosestRecording() async throws {
        let replay = try browserReplay()
        let error = await #expect(throws: NetworkError.self) {
            try await send(replay, request(.get, "https://shop.example.com/api/serch?q=boots&token=s3cr3t-value"))
        }
        guard case .transport(let reason, _) = error else {
            Issue.record("expected .transport, got \(String(describing: error))")
            return
        }
        #expect(reason.hasPrefix("no recorded response for GET https://shop.example.com/api/serch?q=boots&token=%3Credacted%3E in BrowserFixture.har"))
        #expect(reason.hasSuffix("; closest recorded: GET https://shop.example.com/api/search?q=red%20shoes&page=2&sort=price"))
        #expect(!(error?.description.contains("s3cr3t-value") ?? true))

        // Same path, other method: the path wins over a similar-looking URL.
        let post = await #expect(throws: NetworkError.self) {
            try await send(replay, request(.delete, "https://shop.example.com/api/orders"))
        }
        #expect(post?.description.contains("closest recorded: POST https://shop.example.com/api/orders") == true)
    }

    @Test func anEmptyRecordingSaysSo() async throws {
        let replay = try ReplayTransport(harData: Data(#"{"log":{"version":"1.2","entries":[]}}"#.utf8), name: "empty.har")
        let error = await #expect(throws: NetworkError.self) { try await send(replay, request(.get, "https://a.example/x")) }
        #expect(error?.description.contains("no recorded response for GET https://a.example/x in empty.har; it records no exchanges") == true)
    }

    // MARK: Matchers

    @Test func bodyMatcherComparesJSONByValue() async throws {
        let replay = try browserReplay(matching: .methodURLAndBody)
        let reordered = request(
            .post, "https://shop.example.com/api/orders", headers: ["Content-Type": "application/json"],
            body: #"{ "quantity": 2, "sku": "R-42" }"#)
        #expect(try await send(replay, reordered).statusCode == 201)

        let replayAgain = try browserReplay(matching: .methodURLAndBody)
        let other = request(
            .post, "https://shop.example.com/api/orders", headers: ["Content-Type": "application/json"],
            body: #"{"sku":"R-43","quantity":2}"#)
        await #expect(throws: NetworkError.self) { try await send(replayAgain, other) }
        // The default matcher ignores bodies.
        #expect(try await send(try browserReplay(), other).statusCode == 201)
    }

    @Test func customMatcherOnTheBodyPicksAmongSameURLEntries() async throws {
        // Two recorded POSTs to one URL, told apart by a field of the body.
        let capture = CapturePlugin()
        let transport = stub { request in
            let body = request.body.inMemoryData ?? Data()
            let answer = String(decoding: body, as: UTF8.self).contains("alpha") ? "A" : "B"
            return Response(statusCode: 200, data: Data(answer.utf8), request: request)
        }
        let recorder = Provider<TestTarget>(transport: transport, plugins: [capture])
        _ = try await recorder.request(target("/rpc", method: .post, content: .json(["op": "alpha"])))
        _ = try await recorder.request(target("/rpc", method: .post, content: .json(["op": "beta"])))

        let byOperation = ReplayMatcher { request, recorded in
            let live = String(decoding: request.body.inMemoryData ?? Data(), as: UTF8.self)
            let stored = String(decoding: recorded.requestBody ?? Data(), as: UTF8.self)
            return request.url.path == URL(string: recorded.url)?.path && live.contains("beta") == stored.contains("beta")
        }
        let replay = try ReplayTransport(harData: try capture.harData(), matching: byOperation)
        let provider = Provider<TestTarget>(transport: replay)
        #expect(try await provider.request(target("/rpc", method: .post, content: .json(["op": "beta"]))).string() == "B")
        #expect(try await provider.request(target("/rpc", method: .post, content: .json(["op": "alpha"]))).string() == "A")
    }

    @Test func headerMatcherRequiresTheNamedHeaders() async throws {
        let replay = try browserReplay(matching: ReplayMatcher.methodAndURL.requiringHeaders(["Accept"]))
        let url = "https://shop.example.com/static/logo.png"
        await #expect(throws: NetworkError.self) { try await send(replay, request(.get, url, headers: ["Accept": "text/html"])) }
        let response = try await send(replay, request(.get, url, headers: ["ACCEPT": "image/avif,image/webp,*/*"]))
        #expect(response.data == BrowserHARFixture.pngBytes)
    }

    // MARK: Recording

    @Test func recordWhenMissingWritesAHARThatReplaysWithoutATransport() async throws {
        let file = temporaryHAR()
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let calls = Counter()
        let real = stub { request in
            let call = calls.increment()
            return Response(
                statusCode: 200, headers: ["Content-Type": "application/json"],
                data: Data(#"{"call":\#(call),"path":"\#(request.url.path)"}"#.utf8), request: request, source: .network)
        }
        let recording = try ReplayTransport(har: file, mode: .recordWhenMissing(transport: real, to: file))
        let provider = Provider<TestTarget>(transport: recording)
        let first = try await provider.request(target("/users", content: .query(["page": 1, "per": 20])))
        let second = try await provider.request(target("/users", content: .query(["page": 1, "per": 20])))
        let order = try await provider.request(target("/orders", method: .post, content: .json(["sku": "R-42"])))
        #expect(calls.count == 3)
        #expect(first.source == .network && first.string() == #"{"call":1,"path":"/users"}"#)
        #expect(second.string() == #"{"call":2,"path":"/users"}"#)
        #expect(order.string() == #"{"call":3,"path":"/orders"}"#)
        #expect(recording.recordedExchanges.count == 3 && recording.unusedExchanges.isEmpty)

        // A second run in record mode finds everything and sends nothing.
        let rerun = try ReplayTransport(har: file, mode: .recordWhenMissing(transport: real, to: file))
        _ = try await Provider<TestTarget>(transport: rerun).request(target("/users", content: .query(["per": 20, "page": 1])))
        #expect(calls.count == 3)

        // Replay only: the same answers, in order, from the file alone.
        let replay = try ReplayTransport(har: file)
        let replayed = Provider<TestTarget>(transport: replay)
        #expect(try await replayed.request(target("/users", content: .query(["per": 20, "page": 1]))).string() == #"{"call":1,"path":"/users"}"#)
        #expect(try await replayed.request(target("/users", content: .query(["page": 1, "per": 20]))).string() == #"{"call":2,"path":"/users"}"#)
        let replayedOrder = try await replayed.request(target("/orders", method: .post, content: .json(["sku": "R-42"])))
        #expect(replayedOrder.statusCode == 200 && replayedOrder.source == .stub)
        #expect(replayedOrder.string() == #"{"call":3,"path":"/orders"}"#)
        #expect(calls.count == 3)
    }

    @Test func recordingAppendsToABrowserHARAndKeepsItsFields() async throws {
        let file = temporaryHAR()
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try BrowserHARFixture.data.write(to: file)
        let real = stub { request in Response(statusCode: 204, request: request) }
        let recording = try ReplayTransport(har: file, mode: .recordWhenMissing(transport: real, to: file))
        #expect(try await send(recording, request(.get, "https://shop.example.com/static/logo.png")).data == BrowserHARFixture.pngBytes)
        #expect(try await send(recording, request(.delete, "https://shop.example.com/api/orders/o-1001")).statusCode == 204)

        let written = try String(contentsOf: file, encoding: .utf8)
        #expect(written.contains("\"pages\"") && written.contains("\"_initiator\""))
        let replay = try ReplayTransport(har: file)
        #expect(replay.recordedExchanges.count == 5)
        #expect(replay.recordedExchanges.last?.index == 4)
        #expect(try await send(replay, request(.delete, "https://shop.example.com/api/orders/o-1001")).statusCode == 204)
    }

    @Test func secretsInRecordedRequestsAreRedactedInTheWrittenFile() async throws {
        let file = temporaryHAR()
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let real = stub { request in
            Response(
                statusCode: 200, headers: ["Content-Type": "application/json", "Set-Cookie": "session=cookie-secret-42; HttpOnly"],
                data: Data(#"{"echo":"Bearer tok-very-secret-1"}"#.utf8), request: request)
        }
        let recording = try ReplayTransport(har: file, mode: .recordWhenMissing(transport: real, to: file))
        let provider = Provider<TestTarget>(transport: recording)
        let secretTarget = target(
            "/me", method: .post, content: .withQuery(.json(["password": "pw-hunter2-secret", "name": "ann"]), ["api_key": "key-abc-secret"]),
            headers: ["Authorization": "Bearer tok-very-secret-1"])
        let live = try await provider.request(secretTarget)
        #expect(live.string()?.contains("tok-very-secret-1") == true)  // the caller gets the real answer

        let written = try String(contentsOf: file, encoding: .utf8)
        for secret in ["tok-very-secret-1", "pw-hunter2-secret", "key-abc-secret", "cookie-secret-42"] {
            #expect(!written.contains(secret), "\(secret) leaked into the HAR")
        }
        #expect(written.contains("<redacted>"))

        // Redacted values match anything, so the same call replays (with the body matcher too).
        let replay = try ReplayTransport(har: file, matching: .methodURLAndBody.requiringHeaders(["Authorization"]))
        let replayed = try await Provider<TestTarget>(transport: replay).request(secretTarget)
        #expect(replayed.statusCode == 200 && replayed.source == .stub)
    }

    @Test func aHARRecordedByCapturePluginReplays() async throws {
        let capture = CapturePlugin()
        let calls = Counter()
        let transport = stub { request in
            let call = calls.increment()
            return Response(
                statusCode: call == 1 ? 503 : 200, headers: ["Content-Type": "text/plain"],
                data: Data("answer \(call)".utf8), request: request, source: .network)
        }
        let recorder = Provider<TestTarget>(transport: transport, plugins: [capture, RetryPlugin(baseDelay: .zero, jitter: false)])
        let items = target("/items", content: .query(["filter": "new", "token": "query-secret-9"]))
        _ = try await recorder.request(items)
        _ = try await recorder.request(target("/binary", method: .put, content: .data(Data([0xFF, 0x00, 0xFE]), contentType: "application/octet-stream")))
        let har = try capture.harData()
        #expect(!String(decoding: har, as: UTF8.self).contains("query-secret-9"))

        let replay = try ReplayTransport(harData: har)
        let provider = Provider<TestTarget>(transport: replay, plugins: [RetryPlugin(baseDelay: .zero, jitter: false)])
        let replayed = try await provider.request(items)
        #expect(replayed.string() == "answer 2")  // 503 first, retried, then 200: as recorded
        #expect(try await provider.request(target("/binary", method: .put)).string() == "answer 3")
        #expect(replay.unusedExchanges.isEmpty)
    }

    @Test func cacheAnswersInANetKitHARAreNotReplayed() async throws {
        struct CacheOnSecondCall: Plugin {
            let calls = Counter()
            func prepare(_ request: inout Request) async throws -> PrepareAction {
                guard calls.increment() == 2 else { return .proceed }
                var response = Response(statusCode: 200, data: Data("cached".utf8), request: request)
                response.source = .cache
                return .respond(response)
            }
        }
        let capture = CapturePlugin()
        let calls = Counter()
        let transport = stub { request in Response(statusCode: 200, data: Data("network \(calls.increment())".utf8), request: request) }
        let recorder = Provider<TestTarget>(transport: transport, plugins: [capture, CacheOnSecondCall()])
        for _ in 0..<3 { _ = try await recorder.request(target("/feed")) }

        let replay = try ReplayTransport(harData: try capture.harData())
        #expect(replay.recordedExchanges.map(\.index) == [0, 2])
        let provider = Provider<TestTarget>(transport: replay)
        #expect(try await provider.request(target("/feed")).string() == "network 1")
        #expect(try await provider.request(target("/feed")).string() == "network 2")
    }

    @Test func concurrentIdenticalRequestsTakeDistinctEntries() async throws {
        let replay = try browserReplay()
        let url = "https://shop.example.com/api/search?q=red%20shoes&page=2&sort=price"
        let ids = try await withThrowingTaskGroup(of: String?.self) { group in
            for _ in 0..<2 { group.addTask { try await replay.send(request(.get, url)).headers["x-request-id"] } }
            return try await group.reduce(into: [String?]()) { $0.append($1) }
        }
        #expect(Set(ids.compactMap { $0 }) == ["first", "second"])
    }

    // MARK: Pipeline

    @Test func everyPluginHookRunsOnReplayedResponses() async throws {
        let hooks = HookLog()
        let provider = Provider<TestTarget>(transport: try browserReplay(), plugins: [hooks])
        var search = TestTarget()
        search.baseURL = URL(string: "https://shop.example.com")!
        search.path = "/static/logo.png"
        let response = try await provider.request(search)
        #expect(response.data == BrowserHARFixture.pngBytes)
        #expect(hooks.names == ["prepare", "willSend", "didReceive", "succeed 200", "process"])

        hooks.reset()
        search.path = "/missing"
        await #expect(throws: NetworkError.self) { try await provider.request(search) }
        #expect(hooks.names == ["prepare", "willSend", "didReceive", "failure", "process"])
    }

    @Test func aPinnedRequestReplaysBecauseNothingIsSent() async throws {
        struct Pinning: Plugin {
            func prepare(_ request: inout Request) async throws -> PrepareAction {
                request.tls = TLSPolicy(pinnedKeyHashes: ["AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="])
                return .proceed
            }
        }
        var logo = TestTarget()
        logo.baseURL = URL(string: "https://shop.example.com")!
        logo.path = "/static/logo.png"
        let provider = Provider<TestTarget>(transport: try browserReplay(), plugins: [Pinning()])
        #expect(try await provider.request(logo).data == BrowserHARFixture.pngBytes)
    }

    @Test func anEntryWithoutAResponseReplaysAsALostConnection() async throws {
        let har =
            #"{"log":{"entries":[{"request":{"method":"GET","url":"https://a.example/x"},"response":{"status":0,"_error":"net::ERR_CONNECTION_RESET"}}]}}"#
        let replay = try ReplayTransport(harData: Data(har.utf8))
        let error = await #expect(throws: NetworkError.self) { try await send(replay, request(.get, "https://a.example/x")) }
        guard case .connectionLost(let reason, _) = error else {
            Issue.record("expected .connectionLost, got \(String(describing: error))")
            return
        }
        #expect(reason.contains("ERR_CONNECTION_RESET"))
    }

    // MARK: Malformed files

    @Test func malformedHARFailsInitNamingTheProblem() throws {
        let missingStatus = #"{"log":{"version":"1.2","entries":[{"request":{"method":"GET","url":"https://a.example/"},"response":{"headers":[]}}]}}"#
        let error = #expect(throws: NetworkError.self) { try ReplayTransport(harData: Data(missingStatus.utf8), name: "broken.har") }
        #expect(error?.description.contains("HAR 1.2 archive broken.har") == true)
        #expect(error?.description.contains("log.entries.0.response") == true)
        #expect(error?.description.contains("status") == true)

        let notJSON = #expect(throws: NetworkError.self) { try ReplayTransport(harData: Data("<html>Not found</html>".utf8), name: "page.har") }
        #expect(notJSON?.description.contains("not valid JSON") == true)
        #expect(notJSON?.description.contains("<html>") == true)

        let badBase64 =
            #"{"log":{"entries":[{"request":{"method":"GET","url":"https://a.example/"},"response":{"status":200,"content":{"text":"***","encoding":"base64"}}}]}}"#
        let base64Error = #expect(throws: NetworkError.self) { try ReplayTransport(harData: Data(badBase64.utf8)) }
        #expect(base64Error?.description.contains("log.entries.0.response.content.text") == true)

        let missingFile = FileManager.default.temporaryDirectory.appendingPathComponent("no-such-\(UUID().uuidString).har")
        let fileError = #expect(throws: NetworkError.self) { try ReplayTransport(har: missingFile) }
        #expect(fileError?.description.contains(missingFile.path) == true)
    }
}

/// Writes down which hooks ran, in order.
private final class HookLog: Plugin {
    private let log = Locked<[String]>([])
    var names: [String] { log.withLock { $0 } }

    func reset() { log.withLock { $0.removeAll() } }

    private func note(_ name: String) { log.withLock { $0.append(name) } }

    func prepare(_ request: inout Request) async throws -> PrepareAction { note("prepare"); return .proceed }
    func willSend(_ request: Request) async -> SendAction { note("willSend"); return .proceed }
    func succeed(_ response: Response, for request: Request) async -> SucceedAction { note("succeed \(response.statusCode)"); return .proceed }
    func failure(_ error: NetworkError, for request: Request) async -> FailureAction { note("failure"); return .proceed }
    func didReceive(_ result: Result<Response, NetworkError>, for request: Request) async { note("didReceive") }
    func process(_ result: Result<Response, NetworkError>, for request: Request) async -> Result<Response, NetworkError> {
        note("process")
        return result
    }
}
