import Foundation
import NetChain
import NetCore
import Testing
import NetTestSupport

/// A register-then-profile API played by httpbin's `/anything`, which echoes what it receives.
enum Accounts: TargetType {
    case register(id: String)
    case profile(id: String)

    var baseURL: URL { TestServers.httpbin ?? URL(string: "http://127.0.0.1:9")! }
    var path: String {
        switch self {
        case .register: "anything/register"
        case .profile(let id): "anything/users/\(id)"
        }
    }
    var method: HTTPMethod { if case .register = self { .post } else { .get } }
    var content: RequestContent {
        switch self {
        case .register(let id): .json(["id": id])
        case .profile: .query(["fields": "name"])
        }
    }
}

@Suite("Chain against httpbin (integration)")
struct HTTPBinChainTests {
    @Test("Register then profile: the id from the first response is in the second request", .liveServers)
    func registerThenProfile() async throws {
        _ = try TestServers.require("NETKIT_HTTPBIN_URL")
        struct Registered: Decodable { var id: String }
        struct Echo: Decodable { var url: String; var method: String }
        let id = "u-\(UInt32.random(in: 1...UInt32.max))"
        let provider = Provider<Accounts>(transport: URLSessionTransport())
        let responses = try await Chain(provider, .register(id: id))
            .then { previous in .profile(id: try previous.decode(Registered.self, atKeyPath: "json").id) }
            .run()
        #expect(responses.count == 2)
        let echo = try responses[1].decode(Echo.self)
        #expect(echo.method == "GET")
        #expect(echo.url.contains("/anything/users/\(id)?fields=name"))
    }
}
