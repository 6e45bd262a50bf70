import Foundation
import NetCore
import NetTestSupport
import Testing

@Suite("Validation")
struct ValidationTests {
    let provider = Provider<TestTarget>(transport: StubTransport())

    @Test("by default a 404 or 500 fails with unacceptableStatus keeping the response body", arguments: [404, 500])
    func defaultRejectsErrors(status: Int) async throws {
        let body = #"{"error": "status \#(status)"}"#
        let error = await failure(of: TestTarget(name: "missing", sampleResponse: .json(body, statusCode: status)), on: provider)
        guard case .unacceptableStatus(let response)? = error else {
            Issue.record("expected unacceptableStatus, got \(String(describing: error))")
            return
        }
        #expect(response.statusCode == status)
        #expect(response.string() == body)
        #expect(response.headers["content-type"] == "application/json")
        #expect(error?.statusCode == status)
        #expect(error?.response?.data == Data(body.utf8))
        #expect(error?.description.contains("\(status)") == true)
        #expect(error?.description.contains("https://api.example.com/items") == true)
        #expect(error?.description.contains("status \(status)") == true, "the message shows the body")
    }

    @Test(".none accepts every status", arguments: [100, 204, 302, 404, 500, 599])
    func noneAcceptsAll(status: Int) async throws {
        let response = try await provider.request(TestTarget(validation: .none, sampleResponse: SampleResponse(statusCode: status)))
        #expect(response.statusCode == status)
    }

    @Test(".codes accepts exactly the listed codes")
    func explicitCodes() async throws {
        let validation = Validation.codes([200, 404])
        let accepted = try await provider.request(TestTarget(validation: validation, sampleResponse: SampleResponse(statusCode: 404)))
        #expect(accepted.statusCode == 404)
        let rejected = await failure(of: TestTarget(validation: validation, sampleResponse: SampleResponse(statusCode: 201)), on: provider)
        #expect(rejected?.caseName == "unacceptableStatus")
        #expect(rejected?.statusCode == 201)
    }

    @Test(
        "each validation accepts exactly its documented range",
        arguments: [
            (Validation.successCodes, [200, 204, 299], [199, 300, 304, 404, 500]),
            (Validation.successAndRedirectCodes, [200, 299, 301, 304, 399], [199, 400, 404, 500]),
            (Validation.codes([201, 409]), [201, 409], [200, 404]),
            (Validation.none, [0, 100, 200, 404, 999], []),
        ])
    func validationRanges(validation: Validation, accepted: [Int], rejected: [Int]) {
        for status in accepted { #expect(validation.accepts(status), "\(validation) should accept \(status)") }
        for status in rejected { #expect(!validation.accepts(status), "\(validation) should reject \(status)") }
    }

    @Test(".successAndRedirectCodes passes a 304 through the provider, the default rejects it")
    func redirectCodes() async throws {
        let response = try await provider.request(TestTarget(validation: .successAndRedirectCodes, sampleResponse: SampleResponse(statusCode: 304)))
        #expect(response.statusCode == 304)
        let error = await failure(of: TestTarget(sampleResponse: SampleResponse(statusCode: 304)), on: provider)
        #expect(error?.statusCode == 304)
    }
}
