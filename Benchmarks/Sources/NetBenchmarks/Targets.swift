import Foundation
import NetCore

/// The benchmark's API: one small JSON document served by nginx.
enum BenchAPI: TargetType {
    case small

    var baseURL: URL { Servers.nginx }
    var path: String { "/small.json" }
    var method: HTTPMethod { .get }
    var content: RequestContent { .plain }
    /// The document nginx serves (the file ends with a newline).
    static let document = Data(#"{"id":1,"name":"NetKit","tags":["a","b"],"active":true,"score":9.5,"note":"benchmark payload"}"#.utf8 + [0x0A])

    /// The same document nginx serves, with nginx's headers, for stubbed profiling runs.
    var sampleResponse: SampleResponse {
        SampleResponse(
            statusCode: 200,
            headers: [
                "Server": "nginx/1.22.1", "Date": "Fri, 27 Nov 2026 13:31:45 GMT", "Content-Type": "application/json",
                "Content-Length": "95", "Last-Modified": "Fri, 27 Nov 2026 13:31:43 GMT", "Connection": "keep-alive",
                "ETag": "\"6b09863f-5f\"", "Accept-Ranges": "bytes",
            ],
            data: Self.document)
    }
}

/// The 95-byte document.
struct SmallDocument: Decodable, Sendable {
    var id: Int
    var name: String
    var tags: [String]
    var active: Bool
    var score: Double
    var note: String
}

/// A plugin that implements every hook and changes nothing.
struct NoOpPlugin: Plugin {
    func prepare(_ request: inout Request) async throws -> PrepareAction { .proceed }
    func willSend(_ request: Request) async -> SendAction { .proceed }
    func succeed(_ response: Response, for request: Request) async -> SucceedAction { .proceed }
    func failure(_ error: NetworkError, for request: Request) async -> FailureAction { .proceed }
    func process(_ result: Result<Response, NetworkError>, for request: Request) async -> Result<Response, NetworkError> { result }
}

enum Servers {
    /// Read once: `ProcessInfo.environment` builds a dictionary on every call.
    static let nginx: URL = {
        guard let url = ProcessInfo.processInfo.environment["NETKIT_NGINX_URL"].flatMap(URL.init(string:)) else {
            fatalError("NETKIT_NGINX_URL is not set: run scripts/bench, which starts nginx")
        }
        return url
    }()
}
