// Callers on CurlTransport's executor, as the article "Transports" shows.
import Foundation
import NetCore
import NetCurl
import Testing

@Suite("README: Transports")
struct TransportsExample {
    /// Stands in for the README's GitHub API: every user is nginx's small JSON document.
    enum GitHub: TargetType {
        case user(String)
        var baseURL: URL { ProcessInfo.processInfo.environment["NETKIT_NGINX_URL"].flatMap(URL.init(string:))! }
        var path: String { "/small.json" }
        var method: HTTPMethod { .get }
        var content: RequestContent { .query(["login": loginName]) }
        private var loginName: String { if case .user(let login) = self { login } else { "" } }
    }

    struct User: Decodable { let name: String }

    @Test func callersOnTheTransportExecutorGetTheirAnswers() async throws {
        guard ProcessInfo.processInfo.environment["NETKIT_NGINX_URL"] != nil else {
            if ProcessInfo.processInfo.environment["NETKIT_REQUIRE_SERVERS"] == "1" { Issue.record("NETKIT_NGINX_URL not set") }
            return
        }
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
