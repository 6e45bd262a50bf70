// The code of the article "Describing an API" (Sources/NetCore/NetCore.docc/DescribingAnAPI.md):
// ArticleTwinTests requires this file to open with the article's block and to import nothing
// else. The articles on caching, testing, transports and plugins use this `Blog` API.
import Foundation
import NetCore

struct NewPost: Encodable, Sendable {
    let title: String
    let body: String
}

enum Blog: TargetType {
    case posts(page: Int)
    case create(NewPost)
    case attach(postID: Int, image: URL)
    case export(to: URL)

    var baseURL: URL { URL(string: "https://blog.example.com/api")! }
    var path: String {
        switch self {
        case .posts, .create: "posts"
        case .attach(let id, _): "posts/\(id)/images"
        case .export: "export"
        }
    }
    var method: HTTPMethod {
        switch self {
        case .posts, .export: .get
        case .create, .attach: .post
        }
    }
    var content: RequestContent {
        switch self {
        case .posts(let page): .query(["page": page])
        case .create(let post): .json(post)
        case .attach(_, let image): .multipart([MultipartPart(name: "image", fileURL: image)])
        case .export(let file): .download(to: file, resumable: true)
        }
    }
    var headers: [String: String] { ["Accept": "application/json"] }
}
