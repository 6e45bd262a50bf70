import Foundation
import NetCore
import NetPlugins
import NetTestSupport
import Testing

@Suite("ResponseCodePlugin")
struct ResponseCodePluginTests {
    private func result(_ body: String, plugin: ResponseCodePlugin = ResponseCodePlugin()) async -> Result<Response, NetworkError> {
        var target = TestTarget()
        target.sampleResponse = .json(body)
        do { return .success(try await Provider<TestTarget>(transport: StubTransport(), plugins: [plugin]).request(target)) } catch { return .failure(error) }
    }

    @Test(arguments: [#"{"code":0,"data":{"id":1}}"#, #"{"code":"0"}"#, #"{"code":0.0}"#, #"[1,2]"#, "plain text", #"{"data":1}"#])
    func acceptedCodesAndBodiesWithoutACodePass(body: String) async {
        #expect((try? await result(body).get()) != nil)
    }

    @Test func aRejectedCodeBecomesBusinessCodeWithMessageAndResponse() async {
        guard case .failure(.businessCode(let code, let message, let response)) = await result(#"{"code":1001,"message":"token expired"}"#) else {
            Issue.record("expected businessCode")
            return
        }
        #expect(code == "1001")
        #expect(message == "token expired")
        #expect(response.statusCode == 200 && response.string()?.contains("1001") == true)
    }

    @Test func keyPathsAcceptedValuesAndStringCodesAreConfigurable() async {
        let plugin = ResponseCodePlugin(codeKeyPath: "meta.status", acceptedCodes: ["OK", "200"], messageKeyPath: "meta.detail")
        #expect((try? await result(#"{"meta":{"status":"OK"}}"#, plugin: plugin).get()) != nil)
        #expect((try? await result(#"{"meta":{"status":200}}"#, plugin: plugin).get()) != nil)
        guard case .failure(.businessCode("E42", "nope", _)) = await result(#"{"meta":{"status":"E42","detail":"nope"}}"#, plugin: plugin) else {
            Issue.record("expected businessCode E42")
            return
        }
    }

    @Test func booleanCodesCompareAsTrueOrFalse() async {
        let plugin = ResponseCodePlugin(codeKeyPath: "success", acceptedCodes: ["true"], messageKeyPath: "error")
        #expect((try? await result(#"{"success":true}"#, plugin: plugin).get()) != nil)
        guard case .failure(.businessCode("false", "bad", _)) = await result(#"{"success":false,"error":"bad"}"#, plugin: plugin) else {
            Issue.record("expected businessCode false")
            return
        }
    }

    @Test func requiresCodeRejectsJSONWithoutOne() async {
        guard case .failure(.businessCode("missing", _, _)) = await result(#"{"data":1}"#, plugin: ResponseCodePlugin(requiresCode: true)) else {
            Issue.record("expected businessCode missing")
            return
        }
    }

    @Test func failuresAndExcludedRequestsPassUnchanged() async {
        var target = TestTarget()
        target.sampleResponse = .json(#"{"code":5}"#, statusCode: 500)
        do {
            _ = try await Provider<TestTarget>(transport: StubTransport(), plugins: [ResponseCodePlugin()]).request(target)
            Issue.record("expected a failure")
        } catch {
            #expect(error.statusCode == 500)
            if case .businessCode = error { Issue.record("a 500 was turned into a business code") }
        }
        let excluded = ResponseCodePlugin(appliesTo: { _ in false })
        #expect((try? await result(#"{"code":5}"#, plugin: excluded).get()) != nil)
    }
}
