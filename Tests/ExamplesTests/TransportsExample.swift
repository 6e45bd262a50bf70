// Callers on CurlTransport's executor, as the article "Transports" shows.
import Foundation
import NetCore
import NetCurl
import NetTestSupport
import Testing

@Suite("README: Transports")
struct TransportsExample {
    /// Stands in for the README's GitHub API: every user is nginx's small JSON document.
    enum GitHub: TargetType {
        case user(String)
        var baseURL: URL { TestServers.url("NETKIT_NGINX_URL")! }
        var path: String { "/small.json" }
        var method: HTTPMethod { .get }
        var content: RequestContent { .query(["login": loginName]) }
        private var loginName: String { if case .user(let login) = self { login } else { "" } }
    }

    struct User: Decodable { let name: String }

    @Test(.liveServers) func callersOnTheTransportExecutorGetTheirAnswers() async throws {
        _ = try TestServers.require("NETKIT_NGINX_URL")
        let transport = CurlTransport()
        let provider = Provider<GitHub>(transport: transport)
        let names = try await withTaskExecutorPreference(transport.executor) {
            var names: [String] = []
            for login in ["apple", "swiftlang"] {
                names.append(try await provider.request(.user(login), as: User.self).name)
            }
            return names
        }
        #expect(names == ["NetKit", "NetKit"])
    }
}
