import NetToolbox
import Foundation
import NetCore
import NetTestSupport
import Testing

@Suite("Building requests from RequestContent")
struct RequestContentTests {
    @Test(".plain sends no body and no query")
    func plain() async throws {
        let request = try await sentRequest(for: TestTarget(method: .delete, content: .plain))
        #expect(request.method == .delete)
        #expect(request.url.absoluteString == "https://api.example.com/items")
        #expect(request.body.segments.isEmpty)
        #expect(request.body.contentLength == nil)
        #expect(request.headers["Content-Type"] == nil)
        #expect(request.download == nil)
    }

    // MARK: query

    @Test(".query keeps the declared order and writes arrays, nested dictionaries and bools")
    func queryShapes() async throws {
        let parameters: Parameters = [
            "q": "swift", "page": 2, "tags": ["a", "b"], "user": ["name": "x"], "draft": true, "ratio": 1.5,
        ]
        let request = try await sentRequest(for: TestTarget(content: .query(parameters)))
        let query = try #require(rawQuery(request.url))
        #expect(query == "q=swift&page=2&tags%5B%5D=a&tags%5B%5D=b&user%5Bname%5D=x&draft=true&ratio=1.5")
        #expect(PercentEncoding.decode(query) == "q=swift&page=2&tags[]=a&tags[]=b&user[name]=x&draft=true&ratio=1.5")
        #expect(request.body.segments.isEmpty, ".query adds no body")
    }

    @Test(".query percent-encodes reserved characters and unicode per RFC 3986")
    func queryPercentEncoding() async throws {
        let parameters: Parameters = ["q": "a b&c=d/e?f#g+h%", "name": "Zoë 🚀", "safe": "AZaz09-._~"]
        let request = try await sentRequest(for: TestTarget(content: .query(parameters)))
        #expect(
            rawQuery(request.url)
                == "q=a%20b%26c%3Dd%2Fe%3Ff%23g%2Bh%25&name=Zo%C3%AB%20%F0%9F%9A%80&safe=AZaz09-._~")
    }

    @Test(".query encoding is deterministic: the same parameters give the same bytes")
    func queryIsDeterministic() async throws {
        let parameters: Parameters = ["z": 1, "a": ["k2": "v", "k1": ["x", "y"]] as ParameterValue, "m": false]
        let first = try await sentRequest(for: TestTarget(content: .query(parameters)))
        let second = try await sentRequest(for: TestTarget(content: .query(parameters)))
        #expect(first.url == second.url)
        #expect(PercentEncoding.decode(rawQuery(first.url) ?? "") == "z=1&a[k2]=v&a[k1][]=x&a[k1][]=y&m=false")
    }

    // MARK: bodies

    @Test(".json uses the provider's encoder (snake_case honoured) and sets application/json")
    func jsonBody() async throws {
        struct NewUser: Encodable, Sendable {
            let firstName: String
            let isAdmin: Bool
        }
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = .sortedKeys
        let request = try await sentRequest(
            for: TestTarget(method: .post, content: .json(NewUser(firstName: "Ada", isAdmin: true))),
            configuration: ProviderConfiguration(jsonEncoder: encoder)
        )
        #expect(bodyText(request) == #"{"first_name":"Ada","is_admin":true}"#)
        #expect(request.headers["content-type"] == "application/json")
        #expect(request.body.contentLength == Int64(request.body.inMemoryData?.count ?? -1))
    }

    @Test("a target's Content-Type header wins over the one the content implies")
    func targetContentTypeWins() async throws {
        let request = try await sentRequest(
            for: TestTarget(
                method: .post, content: .json(["a": 1]), headers: ["content-type": "application/vnd.api+json"]
            ))
        #expect(request.headers["Content-Type"] == "application/vnd.api+json")
        #expect(request.headers.count == 1)
    }

    @Test(".form writes url-encoded body bytes and its content type")
    func formBody() async throws {
        let request = try await sentRequest(
            for: TestTarget(
                method: .post, content: .form(["name": "Ada Lovelace", "langs": ["swift", "c"], "admin": false, "note": "a&b=c"])
            ))
        #expect(bodyText(request) == "name=Ada%20Lovelace&langs%5B%5D=swift&langs%5B%5D=c&admin=false&note=a%26b%3Dc")
        #expect(request.headers["Content-Type"] == "application/x-www-form-urlencoded; charset=utf-8")
        #expect(rawQuery(request.url) == nil, ".form puts nothing in the URL")
    }

    @Test(".data sends the bytes as they are with the given content type")
    func dataBody() async throws {
        let bytes = Data([0, 1, 2, 0xFF, 0x7F])
        let request = try await sentRequest(for: TestTarget(method: .put, content: .data(bytes, contentType: "application/octet-stream")))
        #expect(request.body.inMemoryData == bytes)
        #expect(request.body.contentLength == 5)
        #expect(request.headers["Content-Type"] == "application/octet-stream")
    }

    // MARK: multipart

    @Test(".multipart with data parts has a boundary in Content-Type and the exact RFC 7578 layout")
    func multipartDataParts() async throws {
        let image = Data([0x89, 0x50, 0x4E, 0x47])
        let request = try await sentRequest(
            for: TestTarget(
                method: .post,
                content: .multipart([
                    MultipartPart(name: "title", value: "Hello \"world\""),
                    MultipartPart(name: "avatar", data: image, fileName: "a.png", mimeType: "image/png"),
                ])))
        guard case .multipart(let body) = request.body else {
            Issue.record("expected a multipart body, got \(request.body)")
            return
        }
        let boundary = body.boundary
        #expect(!boundary.isEmpty)
        #expect(request.headers["Content-Type"] == "multipart/form-data; boundary=\(boundary)")

        var expected = Data()
        expected.append(Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nHello \"world\"\r\n".utf8))
        expected.append(Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"avatar\"; filename=\"a.png\"\r\nContent-Type: image/png\r\n\r\n".utf8))
        expected.append(image)
        expected.append(Data("\r\n--\(boundary)--\r\n".utf8))
        #expect(body.inMemoryData == expected)
        #expect(body.contentLength == Int64(expected.count))
        #expect(try streamedBytes(of: request.body) == expected)
    }

    @Test(".multipart references a file part as a .file segment, and contentLength equals the streamed bytes")
    func multipartFilePartIsStreamed() async throws {
        let directory = try TemporaryDirectory()
        let contents = Data((0..<1000).map { UInt8($0 % 251) })
        let file = try directory.file("report.csv", contents: contents)
        let request = try await sentRequest(
            for: TestTarget(
                method: .post,
                content: .multipart([
                    MultipartPart(name: "kind", value: "csv"),
                    MultipartPart(name: "upload", fileURL: file),
                ])))
        guard case .multipart(let body) = request.body else {
            Issue.record("expected a multipart body, got \(request.body)")
            return
        }
        let segments = request.body.segments
        #expect(segments.count == 3)
        let fileSegments = segments.compactMap { segment -> URL? in
            if case .file(let url) = segment { return url }
            return nil
        }
        #expect(fileSegments == [file], "the file is referenced, not loaded")
        #expect(request.body.inMemoryData == nil)

        let streamed = try streamedBytes(of: request.body)
        #expect(request.body.contentLength == Int64(streamed.count))
        let header = "--\(body.boundary)\r\nContent-Disposition: form-data; name=\"upload\"; filename=\"report.csv\"\r\nContent-Type: text/csv\r\n\r\n"
        var tail = Data(header.utf8)
        tail.append(contents)
        tail.append(Data("\r\n--\(body.boundary)--\r\n".utf8))
        #expect(streamed.suffix(tail.count) == tail, "file part guesses text/csv and defaults the file name")
    }

    // MARK: files

    @Test(".file streams the body from the file with its content type")
    func fileBody() async throws {
        let directory = try TemporaryDirectory()
        let contents = Data(repeating: 0x41, count: 4096)
        let file = try directory.file("upload.bin", contents: contents)
        let request = try await sentRequest(for: TestTarget(method: .put, content: .file(file, contentType: "application/x-test")))
        guard case .file(let url) = request.body else {
            Issue.record("expected a .file body, got \(request.body)")
            return
        }
        #expect(url == file)
        #expect(request.body.inMemoryData == nil)
        #expect(request.body.contentLength == 4096)
        #expect(request.headers["Content-Type"] == "application/x-test")
        #expect(try streamedBytes(of: request.body) == contents)
    }

    @Test(".download sets Request.download; the stub writes the file, creating intermediate directories")
    func download() async throws {
        let directory = try TemporaryDirectory()
        let destination = directory.url.appendingPathComponent("a/b/c/file.bin")
        let payload = Data("downloaded bytes".utf8)
        let log = TransportLog()
        let provider = Provider<TestTarget>(
            transport: StubTransport(
                behavior: .custom { request in
                    log.append(request)
                    return Response(statusCode: 200, data: payload, request: request, source: .stub)
                }))
        // Custom stubs leave storing to the stub too: the same path users get.
        let response = try await provider.request(TestTarget(content: .download(to: destination, resumable: true)))

        #expect(log.last?.download == DownloadDestination(url: destination, resumable: true))
        #expect(response.fileURL == destination)
        #expect(response.data.isEmpty, "a download's body lives on disk")
        #expect(FileManager.default.contents(atPath: destination.path) == payload)
    }

    @Test(".download with the immediate stub writes the target's sample body")
    func downloadImmediate() async throws {
        let directory = try TemporaryDirectory()
        let destination = directory.url.appendingPathComponent("nested/sample.json")
        let provider = Provider<TestTarget>(transport: StubTransport())
        let response = try await provider.request(TestTarget(content: .download(to: destination, resumable: false), sampleResponse: .json("[1,2]")))
        #expect(response.fileURL == destination)
        #expect(response.request.download == DownloadDestination(url: destination, resumable: false))
        #expect(FileManager.default.contents(atPath: destination.path) == Data("[1,2]".utf8))
    }

    @Test(".download to a non-file URL is an invalid request; nothing is sent")
    func downloadToNonFileURL() async throws {
        let log = TransportLog()
        let provider = Provider<TestTarget>(transport: StubTransport.counting(log))
        let error = await failure(of: TestTarget(name: "dl", content: .download(to: URL(string: "https://x.example/f")!, resumable: false)), on: provider)
        #expect(error?.caseName == "invalidRequest")
        #expect(error?.description.contains("TestTarget.dl") == true)
        #expect(log.count == 0)
    }

    // MARK: composite

    @Test(".withQuery adds URL query on top of a JSON body")
    func withQueryOverJSON() async throws {
        let request = try await sentRequest(for: TestTarget(method: .post, content: .withQuery(.json(["k": "v"]), ["dry_run": true, "v": 2])))
        #expect(bodyText(request) == #"{"k":"v"}"#)
        #expect(request.headers["Content-Type"] == "application/json")
        #expect(rawQuery(request.url) == "dry_run=true&v=2")
    }

    @Test("addingQuery wraps any content, and adding again merges with later values winning")
    func addingQuery() async throws {
        let content = RequestContent.form(["a": "1"]).addingQuery(["v": 1, "x": "keep"]).addingQuery(["v": 2, "w": 3])
        guard case .withQuery(let inner, let parameters) = content else {
            Issue.record("expected .withQuery, got \(content)")
            return
        }
        guard case .form = inner else {
            Issue.record("adding twice must not nest: inner is \(inner)")
            return
        }
        #expect(parameters == ["x": "keep", "v": 2, "w": 3])
        let request = try await sentRequest(for: TestTarget(method: .post, content: content))
        #expect(rawQuery(request.url) == "x=keep&v=2&w=3")
        #expect(bodyText(request) == "a=1")
    }

    // MARK: URL

    @Test(
        "paths are joined to the base URL with one slash and unsafe characters percent-encoded",
        arguments: [
            ("https://api.example.com", "items", "https://api.example.com/items"),
            ("https://api.example.com/", "/items", "https://api.example.com/items"),
            ("https://api.example.com/v1/", "users/7", "https://api.example.com/v1/users/7"),
            ("https://api.example.com/v1", "/users/7", "https://api.example.com/v1/users/7"),
            ("https://api.example.com/v1", "", "https://api.example.com/v1"),
            ("https://api.example.com", "files/my file é.txt", "https://api.example.com/files/my%20file%20%C3%A9.txt"),
            ("https://api.example.com", "a%20b/c:d@e", "https://api.example.com/a%20b/c:d@e"),
            ("https://api.example.com", "what?no#frag", "https://api.example.com/what%3Fno%23frag"),
        ])
    func pathJoining(base: String, path: String, expected: String) async throws {
        let request = try await sentRequest(for: TestTarget(baseURL: URL(string: base)!, path: path))
        #expect(request.url.absoluteString == expected)
    }

    @Test("a base URL that carries a query keeps the path before the query")
    func baseURLWithQuery() async throws {
        let request = try await sentRequest(
            for: TestTarget(
                baseURL: URL(string: "https://api.example.com/v1?key=1")!, path: "items", content: .query(["q": "x"])
            ))
        // RequestBuilder already joins a base query with "&", so base queries are meant to work.
        #expect(request.url.absoluteString == "https://api.example.com/v1/items?key=1&q=x")
    }

    @Test("a base URL's query is joined to the content's query with &")
    func baseURLQueryWithoutPath() async throws {
        let request = try await sentRequest(
            for: TestTarget(
                baseURL: URL(string: "https://api.example.com/v1?key=1")!, path: "", content: .query(["q": "x"])
            ))
        #expect(request.url.absoluteString == "https://api.example.com/v1?key=1&q=x")
    }

    @Test("multipart field and file names escape quotes and line breaks")
    func multipartNameEscaping() async throws {
        let request = try await sentRequest(
            for: TestTarget(
                method: .post,
                content: .multipart([
                    MultipartPart(name: "a\"b", data: Data("1".utf8), fileName: "x\r\ny.txt")
                ])))
        let text = try #require(bodyText(request))
        #expect(text.contains("Content-Disposition: form-data; name=\"a%22b\"; filename=\"x%0D%0Ay.txt\"\r\n"))
    }

    @Test("custom HTTP methods are sent as given")
    func customMethod() async throws {
        let request = try await sentRequest(for: TestTarget(method: "PURGE"))
        #expect(request.method.rawValue == "PURGE")
        #expect(request.method.isIdempotent == false)
        #expect(HTTPMethod.put.isIdempotent && !HTTPMethod.post.isIdempotent)
    }
}
