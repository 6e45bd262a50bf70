import Foundation
import NetCore
import NetTestSupport
import Testing

/// Moya's `endpointClosure` rewrote a target's task for one provider; NetKit's
/// `ProviderConfiguration.contentTransform` does that before encoding, and `MultipartBody(parts:)`
/// lets a plugin rebuild a multipart body in `prepare`.
@Suite("Rewriting a target's content for one provider")
struct ContentTransformTests {
    static let upload = TestTarget(
        path: "upload", method: .post, content: .multipart([MultipartPart(name: "avatar", value: "jpeg-bytes")]))

    /// Appends a `device` part to every multipart request, as a Moya `endpointClosure` did.
    static func addingDevicePart() -> ProviderConfiguration {
        var configuration = ProviderConfiguration()
        configuration.contentTransform = { content, _ in
            guard case .multipart(let parts) = content else { return content }
            return .multipart(parts + [MultipartPart(name: "device", value: "ipad-7")])
        }
        return configuration
    }

    @Test("As with Moya's endpointClosure, a provider's content transform appends a multipart part to every request it sends")
    func transformAppendsAPart() async throws {
        let sent = try await sentRequest(for: Self.upload, configuration: Self.addingDevicePart())
        let body = try #require(bodyText(sent))
        #expect(body.contains("name=\"avatar\"\r\n\r\njpeg-bytes\r\n"))
        #expect(body.contains("name=\"device\"\r\n\r\nipad-7\r\n"))
        #expect(sent.headers["Content-Type"]?.hasPrefix("multipart/form-data; boundary=") == true)
        #expect(sent.body.contentLength == Int64(body.utf8.count))

        // buildRequest shows the same body; a provider without the transform sends the target's own.
        let built = try await Provider<TestTarget>(transport: StubTransport(), configuration: Self.addingDevicePart())
            .buildRequest(Self.upload)
        #expect(bodyText(built)?.contains("name=\"device\"") == true)
        let plain = try await sentRequest(for: Self.upload)
        #expect(bodyText(plain)?.contains("name=\"device\"") == false)
    }

    @Test("The content transform sees the target an AnyTarget wraps, and may replace any content")
    func transformSeesTheWrappedTarget() async throws {
        var configuration = ProviderConfiguration()
        configuration.contentTransform = { content, target in
            switch target as? PostsAPI {
            case .create(let title)?: .json(["title": title, "draft": "yes"])
            case nil: content.addingQuery(["via": "transform"])
            }
        }
        let posts = try await sentRequest(for: AnyTarget(PostsAPI.create(title: "Hi")), configuration: configuration)
        #expect(posts.headers["Content-Type"] == "application/json")
        let json = try JSONSerialization.jsonObject(with: posts.body.inMemoryData ?? Data()) as? [String: String]
        #expect(json == ["title": "Hi", "draft": "yes"])
        let users = try await sentRequest(for: AnyTarget(UsersAPI.user("ann")), configuration: configuration)
        #expect(users.url.query == "via=transform")
    }

    @Test("MultipartBody(parts:) rebuilds a multipart body in a plugin's prepare, as the content would have")
    func pluginRebuildsAMultipartBody() async throws {
        struct DevicePart: Plugin {
            func prepare(_ request: inout Request) async throws -> PrepareAction {
                guard case .multipart(let parts) = request.originalTarget.content else { return .proceed }
                let body = try MultipartBody(parts: parts + [MultipartPart(name: "device", value: "ipad-7")])
                request.body = .multipart(body)
                request.headers["Content-Type"] = body.contentType
                return .proceed
            }
        }
        let provider = Provider<TestTarget>(transport: StubTransport(), plugins: [DevicePart()])
        let built = try await provider.buildRequest(Self.upload)
        let body = try #require(bodyText(built))
        let boundary = try #require(built.headers["Content-Type"]?.components(separatedBy: "boundary=").last)
        #expect(body.hasPrefix("--\(boundary)\r\n"))
        #expect(body.hasSuffix("--\(boundary)--\r\n"))
        #expect(body.contains("name=\"device\"\r\n\r\nipad-7\r\n"))
        #expect(built.body.contentLength == Int64(body.utf8.count))

        let missing = URL(fileURLWithPath: "/nonexistent/netkit-\(UUID().uuidString)")
        let error = #expect(throws: NetworkError.self) { try MultipartBody(parts: [MultipartPart(name: "f", fileURL: missing)]) }
        #expect(error?.code == .unreadableFile)
    }
}
