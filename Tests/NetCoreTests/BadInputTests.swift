import Foundation
import NetCore
import NetTestSupport
import Testing

@Suite("Invalid input fails before sending")
struct BadInputTests {
    let log = TransportLog()
    var provider: Provider<TestTarget> { Provider(transport: StubTransport.counting(log)) }

    @Test("Double.nan in a JSON body is encodingFailed naming the target; the transport is never called")
    func nanInJSON() async throws {
        struct Reading: Encodable, Sendable { let value: Double }
        let error = await failure(of: TestTarget(name: "upload", method: .post, content: .json(Reading(value: .nan))), on: provider)
        guard case .encodingFailed(let target, let reason, _)? = error else {
            Issue.record("expected encodingFailed, got \(String(describing: error))")
            return
        }
        #expect(target == "TestTarget.upload")
        #expect(reason.contains("value"), "the reason names the failing key: \(reason)")
        #expect(error?.description.contains("TestTarget.upload") == true)
        #expect(log.count == 0)
    }

    @Test("a missing .file upload is unreadableFile naming the target and the file; nothing is sent")
    func missingUploadFile() async throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("netcore-missing-\(UUID().uuidString).bin")
        let error = await failure(of: TestTarget(name: "put", method: .put, content: .file(missing, contentType: "application/octet-stream")), on: provider)
        guard case .unreadableFile(let target, let url, _, _)? = error else {
            Issue.record("expected unreadableFile, got \(String(describing: error))")
            return
        }
        #expect(target == "TestTarget.put")
        #expect(url == missing)
        #expect(error?.description.contains("TestTarget.put") == true)
        #expect(error?.description.contains(missing.lastPathComponent) == true)
        #expect(log.count == 0)
    }

    @Test("a missing multipart file part is unreadableFile; nothing is sent")
    func missingMultipartFile() async throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("netcore-missing-\(UUID().uuidString).png")
        let error = await failure(
            of: TestTarget(
                name: "avatar", method: .post,
                content: .multipart([
                    MultipartPart(name: "title", value: "x"),
                    MultipartPart(name: "image", fileURL: missing),
                ])), on: provider)
        guard case .unreadableFile(let target, let url, _, _)? = error else {
            Issue.record("expected unreadableFile, got \(String(describing: error))")
            return
        }
        #expect(target == "TestTarget.avatar")
        #expect(url == missing)
        #expect(log.count == 0)
    }

    @Test("a directory as an upload file is unreadableFile")
    func directoryUpload() async throws {
        let directory = try TemporaryDirectory()
        let error = await failure(of: TestTarget(content: .file(directory.url, contentType: "text/plain")), on: provider)
        #expect(error?.caseName == "unreadableFile")
        #expect(log.count == 0)
    }

    @Test(
        "a path with a malformed % escape is invalidURL naming the target; nothing is sent",
        arguments: [
            "bad%zzpath", "trailing%", "short%4", "%g0",
        ])
    func malformedPercentEscape(path: String) async throws {
        let error = await failure(of: TestTarget(name: "escape", path: path), on: provider)
        guard case .invalidURL(let target, let reason)? = error else {
            Issue.record("expected invalidURL, got \(String(describing: error))")
            return
        }
        #expect(target == "TestTarget.escape")
        #expect(reason.contains(path))
        #expect(error?.description.contains("TestTarget.escape") == true)
        #expect(log.count == 0)
    }

    @Test(
        "a base URL that is not absolute http(s) is invalidURL; nothing is sent",
        arguments: [
            "ftp://files.example.com", "file:///tmp", "mailto:someone@example.com", "/relative/only",
        ])
    func nonHTTPBaseURL(base: String) async throws {
        let error = await failure(of: TestTarget(name: "scheme", baseURL: URL(string: base)!), on: provider)
        guard case .invalidURL(let target, _)? = error else {
            Issue.record("expected invalidURL, got \(String(describing: error))")
            return
        }
        #expect(target == "TestTarget.scheme")
        #expect(error?.description.contains("TestTarget.scheme") == true)
        #expect(log.count == 0)
    }

    @Test("a non-http configured base URL also fails, even when the target's is fine")
    func nonHTTPConfiguredBaseURL() async throws {
        let provider = Provider<TestTarget>(
            transport: StubTransport.counting(log),
            configuration: ProviderConfiguration(baseURL: URL(string: "ws://socket.example.com")))
        let error = await failure(of: TestTarget(), on: provider)
        #expect(error?.caseName == "invalidURL")
        #expect(log.count == 0)
    }

    @Test("errors of an enum target name its type and case, never the values it carries")
    func enumTargetNames() async throws {
        enum Broken: TargetType {
            case item(id: Int)
            case login(user: String, password: String)
            case ping
            var baseURL: URL { URL(string: "gopher://old.example.com")! }
            var path: String { "items" }
            var method: HTTPMethod { .get }
            var content: RequestContent { .plain }
        }
        let provider = Provider<Broken>(transport: StubTransport())
        for (target, name) in [(Broken.item(id: 7), "Broken.item"), (.login(user: "alice", password: "pa55-word"), "Broken.login"), (.ping, "Broken.ping")] {
            do {
                _ = try await provider.request(target)
                Issue.record("expected invalidURL")
            } catch {
                #expect(error.description.contains(name), "\(error.description)")
                #expect(error.description.contains("gopher://old.example.com"))
                for value in ["7", "alice", "pa55-word", "id:", "password"] {
                    #expect(!error.description.contains(value), "\(value) leaked: \(error.description)")
                }
            }
        }
    }

    @Test("a struct target is named by its type and path; a target's own description wins")
    func structTargetNames() async throws {
        struct Login: TargetType {
            var password = "pa55-word"
            var baseURL: URL { URL(string: "gopher://old.example.com")! }
            var path: String { "session" }
            var method: HTTPMethod { .post }
            var content: RequestContent { .json(["password": password]) }
        }
        struct Described: TargetType, CustomStringConvertible {
            var baseURL: URL { URL(string: "gopher://old.example.com")! }
            var path: String { "x" }
            var method: HTTPMethod { .get }
            var content: RequestContent { .plain }
            var description: String { "my own name" }
        }
        let error = await outcome { try await Provider<Login>(transport: StubTransport()).request(Login()) }
        #expect(error?.description.contains("Login session") == true, "\(String(describing: error))")
        #expect(error?.description.contains("pa55-word") == false)
        let described = await outcome { try await Provider<Described>(transport: StubTransport()).request(Described()) }
        #expect(described?.description.contains("Described.my own name") == true, "\(String(describing: described))")
    }

    private func outcome(_ body: () async throws -> Response) async -> NetworkError? {
        do {
            _ = try await body()
            return nil
        } catch {
            return error as? NetworkError
        }
    }
}
