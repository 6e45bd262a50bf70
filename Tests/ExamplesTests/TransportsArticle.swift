// The code of the article "Transports" (Sources/NetCore/NetCore.docc/Transports.md), on the
// `Blog` API of DescribingAnAPIArticle.swift: ArticleTwinTests requires this file to open with
// the article's first block and to import nothing else.
import NetCore

func firstPage() async throws -> Response {
    let transport = CurlTransport()
    let provider = Provider<Blog>(transport: transport)
    let first = try await withTaskExecutorPreference(transport.executor) {
        try await provider.request(.posts(page: 1))
    }
    return first
}

struct HeaderStamping: Transport {
    let base: any Transport
    var capabilities: TransportCapabilities { base.capabilities }

    func send(_ request: Request, progress: ProgressHandler?) async throws -> Response {
        var request = request
        request.headers["X-Client"] = "netkit-docs"
        return try await base.send(request, progress: progress)
    }
}
