import Foundation
import NetCore
import Testing
import NetTestSupport

@Suite(.liveServers)
struct ContentTypeValidationLiveTests {
    @Test("An HTML page where JSON is required is unacceptableContentType with its body", arguments: TransportKind.allCases)
    func htmlInsteadOfJSON(kind: TransportKind) async throws {
        let httpbin = try TestServers.require("NETKIT_HTTPBIN_URL")
        let provider = Provider<HostileTarget>(transport: kind.make())
        let html = HostileTarget(path: "/html", base: httpbin, validation: .successCodes.requiringContentType(["application/json"]))
        let error = await outcome { try await provider.request(html) }.failure
        guard case .unacceptableContentType(let response, _)? = error else {
            Issue.record("expected unacceptableContentType, got \(String(describing: error))")
            return
        }
        #expect(response.string()?.contains("<html") == true)
        let json = HostileTarget(path: "/get", base: httpbin, validation: .successCodes.requiringContentType(["application/json"]))
        #expect(try await provider.request(json).statusCode == 200)
    }
}
