// A CookieJar on a provider, as the article "Security model" describes.
import Foundation
import NetCore
import NetTestSupport
import Testing

@Suite("README: Cookies")
struct CookiesExample {
    /// Stands in for the README's API: `/login` sets a session cookie, `/me` echoes the Cookie header.
    enum API: TargetType {
        case login, me
        var baseURL: URL { URL(string: "https://api.example.com")! }
        var path: String { self == .login ? "/login" : "/me" }
        var method: HTTPMethod { .get }
        var content: RequestContent { .plain }
    }

    static let server = StubTransport(
        behavior: .custom { request in
            let headers: HTTPHeaders =
                request.url.path == "/login" ? ["Set-Cookie": "session=abc; Path=/; Max-Age=3600; Secure; HttpOnly"] : [:]
            return Response(statusCode: 200, headers: headers, data: Data((request.headers["Cookie"] ?? "").utf8), request: request)
        })

    @Test func aJarKeepsTheLoginCookieAndSendsItBack() async throws {
        let apiURL = URL(string: "https://api.example.com")!
        let cookiesFile = ScratchFolders.make("cookies").appendingPathComponent("cookies.json")
        // README code (the transport is the stand-in server):
        var configuration = ProviderConfiguration(baseURL: apiURL)
        configuration.cookieJar = CookieJar()  // in memory, as long as the jar lives
        // configuration.cookieJar = CookieJar(persistingTo: cookiesFile)  // a JSON file, kept across launches
        let provider = Provider<API>(transport: Self.server, configuration: configuration)

        _ = try await provider.request(.login)
        #expect(try await provider.request(.me).string() == "session=abc")
        #expect(configuration.cookieJar?.cookies(for: apiURL).map(\.name) == ["session"])

        let persisted = CookieJar(persistingTo: cookiesFile)
        configuration.cookieJar = persisted
        _ = try await Provider<API>(transport: Self.server, configuration: configuration).request(.login)
        #expect(CookieJar(persistingTo: cookiesFile).allCookies.map(\.name) == ["session"])
    }

    @Test func withoutAJarNothingIsKept() async throws {
        let provider = Provider<API>(transport: Self.server)
        _ = try await provider.request(.login)
        #expect(try await provider.request(.me).string() == "")
    }
}

extension CookiesExample {
    /// The README block, compiled (the test above runs it on a stand-in server).
    static func readmeCookies(apiURL: URL, cookiesFile: URL) -> Provider<API> {
        var configuration = ProviderConfiguration(baseURL: apiURL)
        configuration.cookieJar = CookieJar()  // in memory, as long as the jar lives
        // configuration.cookieJar = CookieJar(persistingTo: cookiesFile)  // a JSON file, kept across launches
        let provider = Provider<API>(configuration: configuration)
        return provider
    }
}
