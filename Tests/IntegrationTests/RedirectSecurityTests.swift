import Foundation
import NetCore
import Testing
import NetTestSupport

/// Redirects never leak credentials or downgrade security.
@Suite(.liveServers)
struct RedirectSecurityTests {
    @Test("A redirect to another host drops the Authorization header", arguments: TransportKind.allCases)
    func crossHostRedirectDropsAuthorization(kind: TransportKind) async throws {
        _ = try TestServers.require("NETKIT_FAULT_URL")
        let provider = Provider<FaultTarget>(transport: kind.make())
        let target = FaultTarget(path: "/redirect-other-host", headers: ["Authorization": "Bearer secret-token-123", "X-Visible": "yes"])
        let response = try await provider.request(target)
        let echoed = try response.decode([String: String].self, atKeyPath: "headers")
        #expect(response.request.url.host == "127.0.0.1")
        #expect(echoed["Host"]?.hasPrefix("localhost") == true, "the redirect was followed to the other host")
        #expect(echoed["X-Visible"] == "yes")
        #expect(!echoed.keys.contains { $0.lowercased() == "authorization" })
        #expect(!response.data.contains(Data("secret-token-123".utf8)))
    }
}

@Suite(.liveServers)
struct URLSessionRedirectPolicyTests {
    @Test("Opting out of the cross-host rule forwards Authorization, proving the rule is what drops it")
    func optOutForwardsAuthorization() async throws {
        _ = try TestServers.require("NETKIT_FAULT_URL")
        let transport = URLSessionTransport(redirectPolicy: RedirectPolicy(dropsAuthorizationAcrossHosts: false))
        let target = FaultTarget(path: "/redirect-other-host", headers: ["Authorization": "Bearer forwarded"])
        let response = try await Provider<FaultTarget>(transport: transport).request(target)
        let echoed = try response.decode([String: String].self, atKeyPath: "headers")
        #expect(echoed.first { $0.key.lowercased() == "authorization" }?.value == "Bearer forwarded")
    }

    @Test("RedirectPolicy.none returns the 3xx itself")
    func noRedirects() async throws {
        _ = try TestServers.require("NETKIT_FAULT_URL")
        let transport = URLSessionTransport(redirectPolicy: .none)
        var target = FaultTarget(path: "/redirect-other-host")
        target.validationOverride = Validation.none
        let response = try await Provider<FaultTarget>(transport: transport).request(target)
        #expect(response.statusCode == 302)
    }
}
