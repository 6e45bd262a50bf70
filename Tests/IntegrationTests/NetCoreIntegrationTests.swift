#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import Foundation
import NetTestSupport
import NetCore
import Testing

/// The NetCore contract against a live httpbin, once per transport.
@Suite(.liveServers)
struct NetCoreIntegrationTests {
    private func provider(_ kind: TransportKind, configuration: ProviderConfiguration = .init()) throws -> Provider<HTTPBin> {
        _ = try TestServers.require("NETKIT_HTTPBIN_URL")
        return Provider(transport: kind.make(), configuration: configuration)
    }

    // MARK: Every RequestContent case

    @Test("GET with query parameters reaches httpbin in order and percent-encoded", arguments: TransportKind.allCases)
    func queryParameters(kind: TransportKind) async throws {
        let response = try await provider(kind).request(.get(["q": "swift & café", "page": 2, "tags": ["a", "b"]]))
        let echo = try response.decode(Echo.self)
        #expect(echo.args["q"] == .one("swift & café"))
        #expect(echo.args["page"] == .one("2"))
        #expect(echo.args["tags[]"] == .many(["a", "b"]))
        #expect(response.request.url.query == "q=swift%20%26%20caf%C3%A9&page=2&tags%5B%5D=a&tags%5B%5D=b")
    }

    @Test("POST with a JSON body is echoed back intact", arguments: TransportKind.allCases)
    func jsonBody(kind: TransportKind) async throws {
        let payload = Payload(name: "NetKit", count: 3, tags: ["x", "y"])
        let echo = try await provider(kind).request(.post(payload), as: Echo.self)
        #expect(echo.headers["Content-Type"] == "application/json")
        #expect(echo.json == .object(["name": .string("NetKit"), "count": .number(3), "tags": .array([.string("x"), .string("y")]), "ratio": .number(0.5)]))
    }

    @Test("POST with a form body arrives as form fields", arguments: TransportKind.allCases)
    func formBody(kind: TransportKind) async throws {
        let echo = try await provider(kind).request(.form(["user": "ana maria", "lang": "sv+en"]), as: Echo.self)
        #expect(echo.form?["user"] == .one("ana maria"))
        #expect(echo.form?["lang"] == .one("sv+en"))
    }

    @Test("PUT with raw data sends the bytes as they are", arguments: TransportKind.allCases)
    func rawData(kind: TransportKind) async throws {
        let echo = try await provider(kind).request(.put(Data("raw bytes ✓".utf8)), as: Echo.self)
        #expect(echo.data == "raw bytes ✓")
        #expect(echo.headers["Content-Type"] == "application/octet-stream")
    }

    @Test("PATCH with a file body streams the file", arguments: TransportKind.allCases)
    func fileUpload(kind: TransportKind) async throws {
        let file = try TemporaryFiles.make(contents: String(repeating: "line of text\n", count: 5_000))
        let echo = try await provider(kind).request(.patchFile(file), as: Echo.self)
        #expect(echo.data == String(repeating: "line of text\n", count: 5_000))
    }

    @Test("DELETE reaches httpbin", arguments: TransportKind.allCases)
    func delete(kind: TransportKind) async throws {
        let response = try await provider(kind).request(.delete)
        #expect(response.statusCode == 200)
        #expect(response.source == .network)
    }

    @Test("Multipart with a data part and a file part arrives as form and files", arguments: TransportKind.allCases)
    func multipart(kind: TransportKind) async throws {
        let file = try TemporaryFiles.make(contents: "file part contents", name: "notes.txt")
        let parts = [
            MultipartPart(name: "title", value: "hello"),
            MultipartPart(name: "f", data: Data("in memory".utf8), fileName: "a.txt", mimeType: "text/plain"),
            MultipartPart(name: "doc", fileURL: file, fileName: nil, mimeType: nil),
        ]
        let echo = try await provider(kind).request(.multipart(parts), as: Echo.self)
        #expect(echo.form?["title"] == .one("hello"))
        #expect(echo.files?["f"] == "in memory")
        #expect(echo.files?["doc"] == "file part contents")
        #expect(echo.headers["Content-Type"]?.hasPrefix("multipart/form-data; boundary=") == true)
    }

    @Test("A JSON body with URL query on top sends both", arguments: TransportKind.allCases)
    func bodyWithQuery(kind: TransportKind) async throws {
        let content = RequestContent.json(Payload(name: "q", count: 1, tags: [])).addingQuery(["v": 7])
        let echo = try await provider(kind).request(.anything(content, method: .post), as: Echo.self)
        #expect(echo.args["v"] == .one("7"))
        #expect(echo.method == "POST")
        if case .object(let object)? = echo.json { #expect(object["name"] == .string("q")) } else { Issue.record("no JSON echoed") }
    }

    @Test("A download streams to disk, creating directories and replacing an old file", arguments: TransportKind.allCases)
    func download(kind: TransportKind) async throws {
        let directory = try TemporaryFiles.directory()
        let destination = directory.appendingPathComponent("nested/deeper/bytes.bin")
        try FileManager.default.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("old".utf8).write(to: destination)
        let response = try await provider(kind).request(.bytes(50_000, destination))
        #expect(response.fileURL == destination)
        let size = try FileManager.default.attributesOfItem(atPath: destination.path)[.size] as? NSNumber
        #expect(size?.intValue == 50_000)
    }

    @Test("A failed download leaves an existing destination untouched", arguments: TransportKind.allCases)
    func failedDownloadKeepsOldFile(kind: TransportKind) async throws {
        let destination = try TemporaryFiles.directory().appendingPathComponent("kept.bin")
        try Data("old".utf8).write(to: destination)
        await #expect(throws: NetworkError.self) {
            _ = try await provider(kind).request(.downloadPath("/status/404", destination))
        }
        #expect(try Data(contentsOf: destination) == Data("old".utf8))
    }

    // MARK: Validation

    @Test("404 and 500 fail with unacceptableStatus and keep the body", arguments: TransportKind.allCases, [404, 500])
    func unacceptableStatus(kind: TransportKind, code: Int) async throws {
        let provider = try provider(kind)
        do {
            _ = try await provider.request(.status(code))
            Issue.record("status \(code) was accepted")
        } catch {
            guard case .unacceptableStatus(let response) = error else { Issue.record("unexpected \(error)"); return }
            #expect(response.statusCode == code)
        }
    }

    @Test("Validation .none accepts 404 and 500", arguments: TransportKind.allCases, [404, 500])
    func validationNone(kind: TransportKind, code: Int) async throws {
        let response = try await provider(kind).request(.statusAccepted(code))
        #expect(response.statusCode == code)
    }

    @Test("The unacceptable status keeps httpbin's body", arguments: TransportKind.allCases)
    func unacceptableKeepsBody(kind: TransportKind) async throws {
        // /status/418 has a body (the teapot).
        let provider = try provider(kind)
        do {
            _ = try await provider.request(.status(418))
            Issue.record("418 accepted")
        } catch {
            #expect(error.response?.string()?.contains("teapot") == true)
        }
    }

    // MARK: Bad input

    @Test("An unencodable JSON value, a missing file and a bad path fail before sending", arguments: TransportKind.allCases)
    func badInput(kind: TransportKind) async throws {
        let provider = try provider(kind)
        await #expect { _ = try await provider.request(.post(Payload(name: "x", count: 1, tags: [], ratio: .nan))) } throws: { error in
            guard case .encodingFailed(let target, _, _) = error as? NetworkError else { return false }
            return target.contains("HTTPBin.post")
        }
        let missing = URL(fileURLWithPath: "/nonexistent/netkit-\(UUID().uuidString).txt")
        await #expect { _ = try await provider.request(.patchFile(missing)) } throws: { error in
            guard case .unreadableFile(_, let url, _, _) = error as? NetworkError else { return false }
            return url == missing
        }
        await #expect { _ = try await provider.request(.path("/bad%zzpath")) } throws: { error in
            guard case .invalidURL = error as? NetworkError else { return false }
            return true
        }
    }

    // MARK: Timeouts and cancellation

    @Test("/delay/3 with a 500 ms timeout ends as timedOut within 1.5 s", arguments: TransportKind.allCases)
    func timeout(kind: TransportKind) async throws {
        let provider = try provider(kind)
        let clock = ContinuousClock()
        let start = clock.now
        await #expect { _ = try await provider.request(.delay(3, timeout: .milliseconds(500))) } throws: { error in
            guard case .timedOut = error as? NetworkError else { return false }
            return true
        }
        #expect(clock.now - start < .milliseconds(1_500))
    }

    @Test("Cancelling /delay/10 ends as cancelled within 1 s", arguments: TransportKind.allCases)
    func cancellation(kind: TransportKind) async throws {
        let provider = try provider(kind)
        let clock = ContinuousClock()
        let task = Task { try await provider.request(.delay(10, timeout: .seconds(30))) }
        try await Task.sleep(for: .milliseconds(200))
        let start = clock.now
        task.cancel()
        let result = await task.result
        #expect(clock.now - start < .seconds(1))
        guard case .failure(let error) = result, case .cancelled? = error as? NetworkError else {
            Issue.record("expected cancelled, got \(result)")
            return
        }
    }

    @Test("cancelAll cancels every in-flight request", arguments: TransportKind.allCases)
    func cancelAll(kind: TransportKind) async throws {
        let provider = try provider(kind)
        let tasks = (0..<3).map { _ in Task { try await provider.request(.delay(10, timeout: .seconds(30))) } }
        try await Task.sleep(for: .milliseconds(300))
        provider.cancelAll()
        for task in tasks {
            let result = await task.result
            guard case .failure(let error) = result, case .cancelled? = error as? NetworkError else {
                Issue.record("expected cancelled, got \(result)")
                continue
            }
        }
    }

    @Test("A 401 with WWW-Authenticate: Basic ends with the 401, not a hang", arguments: TransportKind.allCases)
    func basicAuthChallengeEnds(kind: TransportKind) async throws {
        let provider = try provider(kind)
        let clock = ContinuousClock()
        let start = clock.now
        do {
            _ = try await provider.request(.basicAuth)
            Issue.record("401 was accepted")
        } catch {
            if case .unacceptableStatus(let response) = error {
                #expect(response.statusCode == 401)
            } else {
                Issue.record("expected the 401 as unacceptableStatus, got \(error)")
            }
        }
        #expect(clock.now - start < .seconds(6))
    }

    // MARK: General configuration

    @Test("Base URL override, general headers and general query reach httpbin", arguments: TransportKind.allCases)
    func generalConfiguration(kind: TransportKind) async throws {
        let base = try TestServers.require("NETKIT_HTTPBIN_URL")
        let configuration = ProviderConfiguration(
            baseURL: base, headers: ["X-App": "1", "X-Override": "general"], queryParameters: ["v": "2"],
            timeout: .seconds(30), maxAttempts: 3
        )
        let provider = Provider<Elsewhere>(transport: kind.make(), configuration: configuration)
        let echo = try await provider.request(.echo, as: Echo.self)
        #expect(echo.args["v"] == .one("2"))
        #expect(echo.args["own"] == .one("yes"))
        #expect(echo.headers["X-App"] == "1")
        #expect(echo.headers["X-Override"] == "target")
    }

    @Test("request(_:as:atKeyPath:) decodes a nested value", arguments: TransportKind.allCases)
    func keyPathDecoding(kind: TransportKind) async throws {
        let args = try await provider(kind).request(.get(["q": "x"]), as: [String: String].self, atKeyPath: "args")
        #expect(args == ["q": "x"])
    }

    @Test("No ambient cookie jar: a cookie a response sets is never sent back", arguments: TransportKind.allCases)
    func noCookieJar(kind: TransportKind) async throws {
        let provider = try provider(kind)
        // httpbin sets the cookie and redirects to /cookies, which echoes what the client sent.
        let afterRedirect = try await provider.request(.path("/cookies/set/netkit/jar"), as: [String: String].self, atKeyPath: "cookies")
        let later = try await provider.request(.path("/cookies"), as: [String: String].self, atKeyPath: "cookies")
        #expect(afterRedirect.isEmpty)
        #expect(later.isEmpty)
    }

    @Test("A URLSession configuration that asks for no cookie store keeps no cookies, even with its accept policy open")
    func sessionWithoutCookieStore() async throws {
        _ = try TestServers.require("NETKIT_HTTPBIN_URL")
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpCookieAcceptPolicy = .always
        configuration.httpShouldSetCookies = false
        let provider = Provider<HTTPBin>(transport: URLSessionTransport(configuration: configuration))
        _ = try await provider.request(.path("/cookies/set/netkit/jar"))
        let later = try await provider.request(.path("/cookies"), as: [String: String].self, atKeyPath: "cookies")
        #expect(later.isEmpty)
        #expect(configuration.httpCookieAcceptPolicy == .always, "the caller's configuration is untouched")
        // The store may be the process-wide one on Linux: leave nothing behind.
        for cookie in configuration.httpCookieStorage?.cookies ?? [] where cookie.name == "netkit" {
            configuration.httpCookieStorage?.deleteCookie(cookie)
        }
    }

    @Test("An explicit Cookie header is sent as it is", arguments: TransportKind.allCases)
    func explicitCookieHeader(kind: TransportKind) async throws {
        _ = try TestServers.require("NETKIT_HTTPBIN_URL")
        let provider = Provider<HTTPBin>(transport: kind.make(), plugins: [SetHeaderPlugin(name: "Cookie", value: "session=abc")])
        let cookies = try await provider.request(.path("/cookies"), as: [String: String].self, atKeyPath: "cookies")
        #expect(cookies == ["session": "abc"])
    }

    @Test("A TLS policy URLSession cannot enforce fails closed", arguments: [TransportKind.urlSession])
    func tlsPolicyFailsClosed(kind: TransportKind) async throws {
        let provider = Provider<HTTPBin>(transport: kind.make(), plugins: [AttachPin()])
        await #expect { _ = try await provider.request(.get([:])) } throws: { error in
            guard case .tlsPolicyUnsupported = error as? NetworkError else { return false }
            return true
        }
    }
}

/// A target whose own base URL is unreachable: only the configuration's base URL makes it work.
enum Elsewhere: TargetType {
    case echo
    var baseURL: URL { URL(string: "http://203.0.113.1:9")! }
    var path: String { "/anything" }
    var method: HTTPMethod { .get }
    var content: RequestContent { .query(["own": "yes"]) }
    var headers: [String: String] { ["x-override": "target"] }
}

/// Attaches a pin to every request.
struct AttachPin: Plugin {
    func prepare(_ request: inout Request) async throws -> PrepareAction {
        request.tls = TLSPolicy(pinnedKeyHashes: ["AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="])
        return .proceed
    }
}

enum TemporaryFiles {
    static func directory() throws -> URL {
        ScratchFolders.make("integration")
    }

    static func make(contents: String, name: String = "upload.txt") throws -> URL {
        let url = try directory().appendingPathComponent(name)
        try Data(contents.utf8).write(to: url)
        return url
    }
}
