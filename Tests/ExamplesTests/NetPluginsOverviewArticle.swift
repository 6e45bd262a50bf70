// The code of the NetPlugins overview (Sources/NetPlugins/NetPlugins.docc/NetPlugins.md):
// ArticleTwinTests requires this file to open with the article's block and to import nothing else.
import NetCore
import NetPlugins

/// Where your app keeps its sign-in: the current access token, and how to get a new one.
protocol SignIn: Sendable {
    var token: String { get async }
    func refresh() async throws -> String
}

func makeProvider<API: TargetType>(for api: API.Type, session: any SignIn) -> Provider<API> {
    let capture = CapturePlugin()
    return Provider<API>(plugins: [
        AuthPlugin(token: { await session.token }, refresh: { try await session.refresh() }),
        RetryPlugin(maxRetries: 2),
        CachePlugin(storage: .memory(), policy: .cacheElseNetwork, maxAge: .seconds(300)),
        LoggerPlugin(verbosity: .compact),
        capture,
    ])
}
