// The code of the article "Getting Started" (Sources/NetCore/NetCore.docc/GettingStarted.md)
// after its first block, which is the README's "Describe an API" file (DescribeAnAPIExample.swift).
// Compiled only: these functions call httpbin.org and no test runs them.
import Foundation
import NetCore

enum GettingStartedArticle {
    static func sendRequests() async throws {
        let provider = Provider<HTTPBin>()
        let response = try await provider.request(.status(204))
        print(response.statusCode)

        let args = try await provider.request(
            .get(["q": "swift"]), as: [String: String].self, atKeyPath: "args")
        print(args["q"] ?? "")
    }

    static func stagingProvider() -> Provider<HTTPBin> {
        let staging = Provider<HTTPBin>(
            configuration: ProviderConfiguration(
                baseURL: URL(string: "https://staging.example.com")!,
                headers: ["X-App": "demo"],
                timeout: .seconds(20)))
        return staging
    }
}
