import Foundation
import NetCore
import NetTestSupport
import Testing

@Suite("Content-type validation")
struct ContentTypeValidationTests {
    func response(_ contentType: String?, status: Int = 200, accept: String? = nil, validation: Validation) async -> NetworkError? {
        var headers: HTTPHeaders = [:]
        if let contentType { headers["Content-Type"] = contentType }
        var target = TestTarget(
            validation: validation,
            sampleResponse: SampleResponse(statusCode: status, headers: headers, data: Data("{}".utf8)))
        if let accept { target.headers["Accept"] = accept }
        do {
            _ = try await Provider<TestTarget>(transport: StubTransport()).request(target)
            return nil
        } catch {
            return error
        }
    }

    @Test("Exact types, type wildcards and */* match; parameters are ignored")
    func matching() async {
        #expect(await response("application/json; charset=utf-8", validation: .successCodes.requiringContentType(["application/json"])) == nil)
        #expect(await response("text/html", validation: .successCodes.requiringContentType(["text/*"])) == nil)
        #expect(await response("image/png", validation: .successCodes.requiringContentType(["*/*"])) == nil)
        let error = await response("text/html", validation: .successCodes.requiringContentType(["application/json"]))
        guard case .unacceptableContentType(let kept, let accepted)? = error else {
            Issue.record("expected unacceptableContentType, got \(String(describing: error))")
            return
        }
        #expect(kept.data == Data("{}".utf8), "the response and its body are kept")
        #expect(accepted == ["application/json"])
        #expect(error?.description.contains("text/html") == true)
    }

    @Test("A missing Content-Type fails unless */* is accepted")
    func missing() async {
        #expect(await response(nil, validation: .successCodes.requiringContentType(["application/json"]))?.caseName == "unacceptableContentType")
        #expect(await response(nil, validation: .successCodes.requiringContentType(["*/*"])) == nil)
    }

    @Test("An empty list uses the request's Accept header; q=0 ranges are refused")
    func acceptHeader() async {
        let validation = Validation.successCodes.requiringContentType()
        #expect(await response("application/json", accept: "application/json, text/*;q=0.5", validation: validation) == nil)
        #expect(await response("text/plain", accept: "application/json, text/*;q=0.5", validation: validation) == nil)
        #expect(await response("text/plain", accept: "application/json, text/*;q=0", validation: validation)?.caseName == "unacceptableContentType")
        #expect(await response("text/plain", validation: validation) == nil, "no Accept header: nothing to check")
    }

    @Test("The status rule still applies first, and bodiless statuses are not checked")
    func statusFirst() async {
        let validation = Validation.successCodes.requiringContentType(["application/json"])
        #expect(await response("text/html", status: 500, validation: validation)?.caseName == "unacceptableStatus")
        #expect(await response(nil, status: 204, validation: validation) == nil)
    }
}
