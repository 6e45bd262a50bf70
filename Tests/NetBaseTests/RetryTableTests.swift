import Foundation
import NetBase
import Testing

/// `NetworkError.Code`'s retry table: every code in exactly one class, and every user of it agreeing.
@Suite("Which failures may be tried again")
struct RetryTableTests {
    @Test("Every code is transient, permanent or situational, and only one of them", arguments: NetworkError.Code.allCases)
    func everyCodeHasOneClass(code: NetworkError.Code) {
        let classes: [Set<NetworkError.Code>] = [NetworkError.Code.transient, NetworkError.Code.permanent, NetworkError.Code.situational].filter {
            $0.contains(code)
        }
        #expect(classes.count == 1, "\(code) is in \(classes.count) classes")
    }

    @Test("Protocol violations, pins and limits are permanent, never transient")
    func violationsArePermanent() {
        let violations: [NetworkError] = [
            .invalidResponse(reason: "bad status line"), .pinningFailed(host: "example.com"), .responseTooLarge(limit: 10),
        ]
        for error in violations {
            #expect(!error.isTransient, "\(error.code)")
            #expect(NetworkError.Code.permanent.contains(error.code))
        }
    }

    @Test("The offline set is the transient one plus unreadable answers, never a TLS or pin failure")
    func offlineSet() {
        #expect(NetworkError.Code.transient.isSubset(of: NetworkError.Code.offline))
        #expect(!NetworkError.Code.offline.contains(.tlsFailure))
        #expect(!NetworkError.Code.offline.contains(.pinningFailed))
    }
}
