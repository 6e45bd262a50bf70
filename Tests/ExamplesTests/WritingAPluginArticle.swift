// The code of the article "Writing a plugin" (Sources/NetCore/NetCore.docc/WritingAPlugin.md),
// on the `Blog` API of DescribingAnAPIArticle.swift: ArticleTwinTests requires this file to open
// with the article's first block and to import nothing else. CustomPluginExample.swift runs it.
import Foundation
import NetCore

struct TraceHeader: Plugin {
    func prepare(_ request: inout Request) async throws -> PrepareAction {
        request.headers["X-Trace"] = UUID().uuidString
        return .proceed
    }
}

let provider = Provider<Blog>(plugins: [TraceHeader()])

enum AttemptCount: RequestContextKey { static var defaultValue: Int { 0 } }

struct AttemptCounter: Plugin {
    func didReceive(_ result: Result<Response, NetworkError>, for request: Request) async {
        request.callStorage[AttemptCount.self] += 1
    }
}

struct OfflineGuard: Plugin {
    let isOffline: @Sendable () -> Bool

    func willSend(_ request: Request) async -> SendAction {
        isOffline() ? .stop(reason: "offline") : .proceed
    }

    func failure(_ error: NetworkError, for request: Request) async -> FailureAction {
        if error.statusCode == 451 {
            return .fail(.stopped(plugin: name, reason: "not available in this region"))
        }
        if error.isTransient && request.attempt < 3 {
            return .retry(after: .milliseconds(200))
        }
        return .proceed
    }
}
