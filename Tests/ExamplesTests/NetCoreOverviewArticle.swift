// The code of the NetCore overview (Sources/NetCore/NetCore.docc/NetCore.md): ArticleTwinTests
// requires this file to open with the article's block and to import nothing else.
import Foundation
import NetCore

enum Books: TargetType {
    case search(String)

    var baseURL: URL { URL(string: "https://books.example.com")! }
    var path: String { "/search" }
    var method: HTTPMethod { .get }
    var content: RequestContent {
        switch self {
        case .search(let text): .query(["q": text])
        }
    }
}

func searchBooks() async throws {
    let provider = Provider<Books>()
    let response = try await provider.request(.search("swift"))
    print(response.statusCode)
}
