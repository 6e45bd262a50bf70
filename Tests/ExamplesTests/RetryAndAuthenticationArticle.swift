// The code of the article "Retry and authentication" (Sources/NetPlugins/NetPlugins.docc/RetryAndAuthentication.md), block by block: ArticleTwinTests
// requires this file to open with the article's first block and to import nothing else, so the
// article compiles as a reader pastes it.
import Foundation
import NetCore
import NetPlugins

enum Accounts: TargetType {
    case me
    case rename(to: String)

    var baseURL: URL { URL(string: "https://api.example.com")! }
    var path: String { "/me" }
    var method: HTTPMethod { if case .rename = self { .put } else { .get } }
    var content: RequestContent {
        if case .rename(let name) = self { .json(["name": name]) } else { .plain }
    }
}

/// Holds the access token and gets a new one when the server rejects it.
actor AccountTokens {
    private(set) var accessToken = "token-from-your-login"

    func refresh() async throws -> String {
        accessToken = "token-from-your-refresh-endpoint"  // call your token endpoint here
        return accessToken
    }
}

func makeAccountsProvider(tokens: AccountTokens) -> Provider<Accounts> {
    Provider<Accounts>(plugins: [
        AuthPlugin(token: { await tokens.accessToken }, refresh: { try await tokens.refresh() }),
        RetryPlugin(maxRetries: 2, baseDelay: .milliseconds(200)),
    ])
}
