import Foundation
import NetTestSupport
import Testing

@testable import NetBase
@testable import NetCore

/// A TLS policy set on a request never silently stops applying at a redirect to another origin.
@Suite("Redirects under a TLS policy")
struct RedirectTLSTests {
    let policy = TLSPolicy(pinnedKeyHashes: ["AAAA"])

    func redirect(to location: String, from request: Request) -> RedirectDecision {
        let response = Response(statusCode: 302, headers: ["Location": location], request: request)
        return RedirectPolicy.secure.decision(after: response, to: request)
    }

    func request(tls: TLSPolicy?, resolver: TLSPolicyResolver? = nil) -> Request {
        var request = Request(url: URL(string: "https://a.example:8443/start")!, tls: tls, target: TestTarget())
        request.redirectTLS = resolver
        return request
    }

    @Test("A policy without a per-origin resolver refuses a hop to another port, with a reason naming the way out")
    func refusesCrossOriginWithoutResolver() throws {
        guard case .refuse(.redirectRefused(let reason)) = redirect(to: "https://a.example:9443/next", from: request(tls: policy)) else {
            Issue.record("a cross-origin hop under a bare policy was not refused")
            return
        }
        #expect(reason.contains("redirectTLS"))
        #expect(reason.contains("https://a.example:9443"))
    }

    @Test("A same-origin hop keeps the policy")
    func sameOriginKeepsPolicy() {
        guard case .follow(let next) = redirect(to: "/next", from: request(tls: policy)) else {
            Issue.record("a same-origin hop was not followed")
            return
        }
        #expect(next.tls == policy)
    }

    @Test("With a resolver, the next origin gets the policy chosen for it")
    func resolverChoosesNextPolicy() {
        let other = TLSPolicy(pinnedKeyHashes: ["BBBB"])
        let resolver = TLSPolicyResolver { url in url.port == 9443 ? other : nil }
        guard case .follow(let next) = redirect(to: "https://a.example:9443/next", from: request(tls: policy, resolver: resolver)) else {
            Issue.record("a hop with a resolver was not followed")
            return
        }
        #expect(next.tls == other)
    }

    @Test("Without a policy, cross-origin hops are followed as before")
    func noPolicyFollows() {
        guard case .follow(let next) = redirect(to: "https://b.example/next", from: request(tls: nil)) else {
            Issue.record("a plain hop was not followed")
            return
        }
        #expect(next.tls == nil)
    }
}
