import Foundation
import NetCore
import Testing

/// A target described by values, so each test states exactly what it sends.
struct Endpoint: TargetType {
    var baseURL = URL(string: "https://api.example.com")!
    var path = "/items"
    var method: HTTPMethod = .get
    var content: RequestContent = .plain
    var headers: [String: String] = [:]
    var validation: Validation = .successCodes
    var sampleResponse = SampleResponse(statusCode: 200)
}
