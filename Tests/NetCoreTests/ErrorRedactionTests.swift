import Foundation
import NetCore
import NetTestSupport
import Testing

/// Error descriptions follow the same redaction model as logs and HAR files.
@Suite("Error descriptions hide secrets")
struct ErrorRedactionTests {
    @Test("unacceptableStatus hides userinfo, secret query values and echoed credentials")
    func unacceptableStatus() async {
        let target = TestTarget(
            baseURL: URL(string: "https://ann:hunter2-pw@api.example.com")!, path: "items",
            content: .query(["token": "tok-123456", "page": 2]),
            headers: ["Authorization": "Bearer bearer-secret-9"],
            sampleResponse: SampleResponse(
                statusCode: 403, headers: ["Content-Type": "text/plain"],
                data: Data("denied for Bearer bearer-secret-9".utf8)))
        let error = await failure(of: target, on: Provider(transport: StubTransport()))
        let text = error?.description ?? ""
        #expect(text.contains("403"))
        #expect(text.contains("page=2"))
        for secret in ["hunter2-pw", "tok-123456", "bearer-secret-9"] {
            #expect(!text.contains(secret), "\(secret) leaked: \(text)")
        }
    }

    @Test("An empty error body says so instead of ending in 'Body: '")
    func emptyBody() async {
        let error = await failure(of: TestTarget(sampleResponse: SampleResponse(statusCode: 404)), on: Provider(transport: StubTransport()))
        #expect(error?.description.hasSuffix("Body: (empty body)") == true, "\(String(describing: error))")
    }

    @Test("Transport texts quoting a URL with userinfo lose the userinfo")
    func transportText() {
        let error = NetworkError.transport(reason: "could not reach https://bob:s3cr3t-pw@host.example/x")
        #expect(!error.description.contains("s3cr3t-pw"))
        #expect(error.description.contains("host.example"))
    }
}
