import Foundation
import NetCore
@testable import NetPlugins
import Testing
import NetTestSupport

@Suite("CapturePlugin")
struct CapturePluginTests {
    private func target(_ path: String, status: Int = 200, body: String = #"{"ok":true}"#) -> TestTarget {
        var target = TestTarget()
        target.path = path
        target.sampleResponse = .json(body, statusCode: status)
        return target
    }

    @Test func recordsEveryAttemptWithStatusAttemptAndSource() async throws {
        let capture = CapturePlugin()
        let calls = Counter()
        let transport = stub { request in
            Response(statusCode: calls.increment() == 1 ? 503 : 200, data: Data("x".utf8), request: request, source: .network)
        }
        let provider = Provider<TestTarget>(transport: transport, plugins: [capture, RetryPlugin(baseDelay: .zero, jitter: false)])
        _ = try await provider.request(TestTarget())
        let entries = capture.exchanges
        #expect(entries.map(\.attempt) == [1, 2])
        #expect(entries.map(\.statusCode) == [503, 200])
        #expect(entries[0].error?.contains("Status 503") == true)
        #expect(entries[1].error == nil)
        #expect(entries.allSatisfy { $0.source == .network && $0.host == "api.example.com" && $0.path == "/items" })
        #expect(entries[0].id == entries[1].id)
    }

    @Test func recordsTransportErrorsAndAnswersThatNeverReachedTheTransport() async throws {
        struct Answering: Plugin {
            func prepare(_ request: inout Request) async throws -> PrepareAction {
                guard request.url.path == "/cached" else { return .proceed }
                var response = Response(statusCode: 200, request: request)
                response.source = .cache
                return .respond(response)
            }
        }
        let capture = CapturePlugin()
        let transport = stub { _ in throw NetworkError.timedOut }
        let provider = Provider<TestTarget>(transport: transport, plugins: [capture, Answering()])
        _ = try? await provider.request(target("/slow"))
        _ = try await provider.request(target("/cached"))
        let entries = capture.exchanges
        #expect(entries.count == 2)
        #expect(entries[0].statusCode == nil && entries[0].error?.contains("timed out") == true)
        #expect(entries[1].statusCode == 200 && entries[1].source == .cache)
    }

    @Test func queriesFilterByHostPathStatusAndTime() async throws {
        let capture = CapturePlugin()
        let provider = Provider<TestTarget>(transport: StubTransport(), plugins: [capture])
        let before = Date()
        _ = try await provider.request(target("/users/1"))
        _ = try? await provider.request(target("/users/2", status: 404))
        var other = target("/orders")
        other.baseURL = URL(string: "https://shop.example.com")!
        _ = try? await provider.request(other)
        let after = Date()
        #expect(capture.exchanges(host: "API.example.com").count == 2)
        #expect(capture.exchanges(path: "/users/*").count == 2)
        #expect(capture.exchanges(path: "/users/1").count == 1)
        #expect(capture.exchanges(status: 404).map(\.path) == ["/users/2"])
        #expect(capture.exchanges(status: 200...299).count == 2)
        #expect(capture.exchanges(since: before.addingTimeInterval(-1), until: after.addingTimeInterval(1)).count == 3)
        #expect(capture.exchanges(since: after.addingTimeInterval(1)).isEmpty)
        capture.clear()
        #expect(capture.count == 0 && capture.exchanges.isEmpty)
    }

    @Test func boundedByCountKeepingTheNewest() async throws {
        let capture = CapturePlugin(maxEntries: 3)
        let provider = Provider<TestTarget>(transport: StubTransport(), plugins: [capture])
        for index in 1...7 { _ = try await provider.request(target("/\(index)")) }
        #expect(capture.exchanges.map(\.path) == ["/5", "/6", "/7"])
    }

    @Test func boundedByBytesKeepingTheNewestAndOversizedEntriesWithoutBodies() async throws {
        let capture = CapturePlugin(maxEntries: 100, maxBytes: 25)
        let provider = Provider<TestTarget>(transport: StubTransport(), plugins: [capture])
        for index in 1...4 { _ = try await provider.request(target("/\(index)", body: "0123456789")) }
        #expect(capture.exchanges.map(\.path) == ["/3", "/4"])
        _ = try await provider.request(target("/big", body: String(repeating: "b", count: 100)))
        let last = try #require(capture.exchanges.last)
        #expect(last.path == "/big" && last.bodiesOmitted && last.responseBody.isEmpty)
    }

    private func upload(_ bytes: Int) -> Request {
        var request = Request(url: URL(string: "https://a.example/upload")!, target: TestTarget())
        request.body = .data(Data(repeating: 7, count: bytes))
        return request
    }

    @Test func anOversizedExchangeKeepsNoBodyNotEvenInTheResponseItsErrorCarries() async throws {
        let capture = CapturePlugin(maxEntries: 10, maxBytes: 100)
        let request = upload(64)
        let refused = Response(statusCode: 500, data: Data(repeating: 8, count: 64), request: request)
        await capture.didReceive(.failure(.unacceptableStatus(refused)), for: request)
        let record = try #require(capture.records.last)
        let kept = try #require(record.error?.response)
        #expect(record.bodiesOmitted && record.bytes == 0 && kept.data.isEmpty && kept.statusCode == 500)
        for body in [record.request.body, kept.request.body, try #require(record.response).response.request.body] {
            guard case .none = body else {
                Issue.record("a body is still held: \(body)")
                return
            }
        }
        #expect(try #require(capture.exchanges.last).error?.contains("500") == true)
        // The caller's values are untouched.
        #expect(refused.data.count == 64 && request.body.inMemoryData?.count == 64)
    }

    @Test func aResponseCarryingAnotherRequestIsKeptWithTheRecordedOne() async throws {
        let capture = CapturePlugin()
        let request = upload(8)
        // A custom transport (or a plugin answering in prepare) may attach a request whose body
        // the byte count never saw.
        let response = Response(statusCode: 200, data: Data("ok".utf8), request: upload(10_000))
        await capture.didReceive(.success(response), for: request)
        let record = try #require(capture.records.last)
        let kept = try #require(record.response).response
        #expect(kept.request.sharesFields(with: record.request) && record.bytes == 10 && kept.data == Data("ok".utf8))
    }

    @Test func bufferEvictsInOrderUnderMixedLimits() {
        var buffer = CaptureBuffer(maxCount: 3, maxBytes: 10)
        func record(_ bytes: Int, _ path: String) -> CaptureRecord {
            CaptureRecord(
                request: Request(url: URL(string: "https://a.example/\(path)")!, target: TestTarget()), response: nil,
                error: nil, startDate: Date(), duration: .zero, bytes: bytes, bodiesOmitted: false)
        }
        for (bytes, path) in [(2, "a"), (2, "b"), (2, "c"), (2, "d"), (9, "e"), (1, "f"), (0, "g")] {
            buffer.append(record(bytes, path))
        }
        #expect(buffer.records.map(\.request.url.lastPathComponent) == ["e", "f", "g"])
        #expect(buffer.bytes == 10 && buffer.count == 3)
    }

    @Test func concurrentRecordingLosesNothing() async throws {
        let capture = CapturePlugin(maxEntries: 10_000)
        let provider = Provider<TestTarget>(transport: StubTransport(), plugins: [capture])
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<200 { group.addTask { _ = try? await provider.request(self.target("/\(index)")) } }
        }
        #expect(capture.count == 200)
        #expect(Set(capture.exchanges.map(\.path)).count == 200)
    }

    @Test func harExportHasEveryRequiredHAR12Field() async throws {
        let capture = CapturePlugin()
        let provider = Provider<TestTarget>(transport: StubTransport(), plugins: [capture])
        var post = target("/submit", status: 201, body: #"{"id":7}"#)
        post.method = .post
        post.content = .withQuery(.json(["name": "a"]), ["page": "2"])
        _ = try await provider.request(post)
        _ = try? await Provider<TestTarget>(transport: stub { _ in throw NetworkError.timedOut }, plugins: [capture]).request(target("/down"))

        let json = try JSONSerialization.jsonObject(with: try capture.harData()) as? [String: Any]
        let log = try #require(json?["log"] as? [String: Any])
        #expect(log["version"] as? String == "1.2")
        let creator = try #require(log["creator"] as? [String: Any])
        #expect(creator["name"] as? String == "NetKit" && creator["version"] is String)
        let entries = try #require(log["entries"] as? [[String: Any]])
        #expect(entries.count == 2)
        for entry in entries {
            HARFields.check(entry)
        }
        let request = try #require(entries[0]["request"] as? [String: Any])
        #expect(request["method"] as? String == "POST")
        #expect(request["url"] as? String == "https://api.example.com/submit?page=2")
        #expect((request["queryString"] as? [[String: String]]) == [["name": "page", "value": "2"]])
        let postData = try #require(request["postData"] as? [String: Any])
        #expect(postData["mimeType"] as? String == "application/json")
        #expect(postData["text"] as? String == #"{"name":"a"}"#)
        let response = try #require(entries[0]["response"] as? [String: Any])
        #expect(response["status"] as? Int == 201 && response["statusText"] as? String == "Created")
        let content = try #require(response["content"] as? [String: Any])
        #expect(content["text"] as? String == #"{"id":7}"# && content["size"] as? Int == 8 && content["mimeType"] as? String == "application/json")
        let failed = try #require(entries[1]["response"] as? [String: Any])
        #expect(failed["status"] as? Int == 0)
        #expect((entries[1]["_error"] as? String)?.contains("timed out") == true)
    }

    @Test func binaryBodiesAreBase64InHAR() async throws {
        let capture = CapturePlugin()
        var binary = TestTarget()
        binary.sampleResponse = SampleResponse(statusCode: 200, headers: ["Content-Type": "application/octet-stream"], data: Data([0xFF, 0x00, 0xFE]))
        _ = try await Provider<TestTarget>(transport: StubTransport(), plugins: [capture]).request(binary)
        let json = try JSONSerialization.jsonObject(with: try capture.harData()) as? [String: Any]
        let entry = try #require(((json?["log"] as? [String: Any])?["entries"] as? [[String: Any]])?.first)
        let content = try #require((entry["response"] as? [String: Any])?["content"] as? [String: Any])
        #expect(content["encoding"] as? String == "base64")
        #expect(content["text"] as? String == Data([0xFF, 0x00, 0xFE]).base64EncodedString())
    }

    @Test func secretsNeverAppearInEntriesOrHAR() async throws {
        let capture = CapturePlugin(redaction: .default.adding(headers: ["X-Api-Key"], queryItems: ["sig"]))
        var target = TestTarget()
        target.method = .post
        target.headers = ["Authorization": "Bearer s3cr3t-token", "Cookie": "sid=cookie-secret", "X-Api-Key": "key-secret"]
        target.content = .withQuery(.json(["password": "pw-secret", "user": "ann"]), ["sig": "sig-secret", "token": "tok-secret"])
        let body = #"{"headers":{"Authorization":"Bearer s3cr3t-token"},"echo":"key-secret"}"#
        target.sampleResponse = SampleResponse(
            statusCode: 401, headers: ["Set-Cookie": "sid=set-secret; HttpOnly", "Content-Type": "application/json"],
            data: Data(body.utf8))
        _ = try? await Provider<TestTarget>(transport: StubTransport(), plugins: [capture]).request(target)
        let har = String(decoding: try capture.harData(), as: UTF8.self)
        let entries = capture.exchanges
        let dump = entries.map { entry in
            [
                entry.url, entry.requestHeaders.description, entry.responseHeaders.description, entry.error ?? "",
                String(decoding: entry.requestBody ?? Data(), as: UTF8.self), String(decoding: entry.responseBody, as: UTF8.self),
            ]
            .joined(separator: "\n")
        }.joined()
        for secret in ["s3cr3t-token", "cookie-secret", "key-secret", "pw-secret", "sig-secret", "tok-secret", "set-secret"] {
            #expect(!har.contains(secret), "HAR contains \(secret)")
            #expect(!dump.contains(secret), "captured entries contain \(secret)")
        }
        #expect(har.contains("ann") && dump.contains("<redacted>"))
    }
}

/// The HAR 1.2 field list (required fields and their types).
enum HARFields {
    static func check(_ entry: [String: Any], sourceLocation: SourceLocation = #_sourceLocation) {
        func require(_ object: [String: Any]?, _ fields: [String: (Any) -> Bool], _ name: String) {
            guard let object else { Issue.record("\(name) missing", sourceLocation: sourceLocation); return }
            for (field, isValid) in fields {
                guard let value = object[field] else { Issue.record("\(name).\(field) missing", sourceLocation: sourceLocation); continue }
                #expect(isValid(value), "\(name).\(field) has the wrong type: \(value)", sourceLocation: sourceLocation)
            }
        }
        let string: (Any) -> Bool = { $0 is String }
        let number: (Any) -> Bool = { $0 is NSNumber }
        let list: (Any) -> Bool = { $0 is [Any] }
        let object: (Any) -> Bool = { $0 is [String: Any] }
        require(entry, ["startedDateTime": string, "time": number, "request": object, "response": object, "cache": object, "timings": object], "entry")
        if let date = entry["startedDateTime"] as? String {
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            #expect(formatter.date(from: date) != nil, "startedDateTime \(date) is not ISO 8601", sourceLocation: sourceLocation)
        }
        require(
            entry["request"] as? [String: Any],
            [
                "method": string, "url": string, "httpVersion": string, "cookies": list, "headers": list,
                "queryString": list, "headersSize": number, "bodySize": number,
            ], "request")
        require(
            entry["response"] as? [String: Any],
            [
                "status": number, "statusText": string, "httpVersion": string, "cookies": list,
                "headers": list, "content": object, "redirectURL": string, "headersSize": number,
                "bodySize": number,
            ], "response")
        require((entry["response"] as? [String: Any])?["content"] as? [String: Any], ["size": number, "mimeType": string], "content")
        require(entry["timings"] as? [String: Any], ["send": number, "wait": number, "receive": number], "timings")
        if let timings = entry["timings"] as? [String: Double], let time = entry["time"] as? Double {
            let sum = timings.values.filter { $0 >= 0 }.reduce(0, +)
            #expect(abs(sum - time) < 0.001, "timings add up to \(sum), time is \(time)", sourceLocation: sourceLocation)
        }
        if let postData = (entry["request"] as? [String: Any])?["postData"] {
            require(postData as? [String: Any], ["mimeType": string, "text": string, "params": list], "postData")
        }
        for (part, key) in [("request", "headers"), ("response", "headers"), ("request", "queryString"), ("request", "cookies")] {
            for pair in ((entry[part] as? [String: Any])?[key] as? [Any]) ?? [] {
                require(pair as? [String: Any], ["name": string, "value": string], "\(part).\(key)[]")
            }
        }
    }
}
