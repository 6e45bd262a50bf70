import Foundation
import NetCore
import NetTestSupport
import Testing

@Suite("The default transport")
struct DefaultTransportTests {
    @Test("Provider() uses this platform's default transport, one instance for every provider")
    func platformDefault() {
        let first = Provider<TestTarget>(), second = Provider<UsersAPI>()
        #if os(Linux)
            #expect(first.transport is CurlTransport, "Linux defaults to the curl transport, got \(type(of: first.transport))")
        #else
            #expect(first.transport is URLSessionTransport)
        #endif
        let identities = [first.transport, second.transport, DefaultTransport.shared].map { ObjectIdentifier($0 as AnyObject) }
        #expect(Set(identities).count == 1, "providers share one default instance")
    }

    @Test("The User-Agent names NetKit, its version and the system")
    func userAgent() {
        #expect(NetKitInfo.userAgent.hasPrefix("NetKit/\(NetKitInfo.version) ("))
    }
}
