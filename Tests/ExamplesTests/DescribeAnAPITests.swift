// Runs the README section "Describe an API" (its code is DescribeAnAPIExample.swift).
import Foundation
import NetCore
import Testing

@Suite("README: Describe an API")
struct DescribeAnAPIExample {
    let provider = Provider<HTTPBin>(transport: HTTPBinStub.transport)

    @Test func statusTargetIsAPlainGetToItsPath() async throws {
        let response = try await provider.request(.status(204))
        #expect(response.statusCode == 204)
        #expect(response.request.method == .get)
        #expect(response.request.url.absoluteString == "https://httpbin.org/status/204")
        #expect(response.request.body.contentLength == nil)
    }

    @Test func getTargetEncodesParametersInOrderAsTheREADMEShows() async throws {
        let response = try await provider.request(.get(["q": "swift", "page": 2, "tags": ["a", "b"]]))
        #expect(response.request.url.absoluteString == "https://httpbin.org/get?q=swift&page=2&tags%5B%5D=a&tags%5B%5D=b")
    }

    @Test func postTargetSendsItsPayloadAsJSON() async throws {
        let payload = Payload(name: "Ada", count: 3)
        let response = try await provider.request(.post(payload))
        #expect(response.request.method == .post)
        #expect(response.request.headers["Content-Type"]?.hasPrefix("application/json") == true)
        #expect(try response.decode(Payload.self, atKeyPath: "json") == payload)
    }

    @Test func bytesTargetDownloadsToTheGivenFile() async throws {
        let file = temporaryDirectory().appendingPathComponent("nested/bytes.bin")
        let response = try await provider.request(.bytes(1024, file))
        #expect(response.fileURL == file)
        #expect(try Data(contentsOf: file).count == 1024)
    }
}
