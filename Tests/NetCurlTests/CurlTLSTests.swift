import Foundation
import NetCore
import NetCurl
import Testing
import NetTestSupport

/// nginx with a certificate generated at run time (TLS + HTTP/2): NETKIT_TLS_URL, NETKIT_TLS_CERT, NETKIT_TLS_PIN.
@Suite("CurlTransport enforces TLS policies per request")
struct CurlTLSTests {
    private struct Server {
        let url: URL
        let certificate: Data
        let pin: String

        /// The same server under its other name (the certificate covers both 127.0.0.1 and localhost).
        var localhostURL: URL {
            var components = URLComponents(url: url, resolvingAgainstBaseURL: false)!
            components.host = "localhost"
            return components.url!
        }
    }

    private let wrongPin = Data(repeating: 0xAB, count: 32).base64EncodedString()

    private func server() throws -> Server {
        let url = try TestServers.require("NETKIT_TLS_URL")
        let values = try TestServers.requireValues("NETKIT_TLS_CERT", "NETKIT_TLS_PIN")
        let (certPath, pin) = (values[0], values[1])
        return Server(
            url: url.appendingPathComponent("small.json"),
            certificate: try Data(contentsOf: URL(fileURLWithPath: certPath)), pin: pin)
    }

    @Test(.liveServers) func theRightPinWithTheCertificateTrustedSucceedsOverHTTP2() async throws {
        let server = try server()
        let policy = TLSPolicy(pinnedKeyHashes: [server.pin], trustedCertificates: [server.certificate])
        let response = try await CurlTransport().send(.to(server.url, tls: policy))
        #expect(response.statusCode == 200)
        #expect(response.data.count == 95)
        #expect(response.metrics?.httpVersion == "HTTP/2")
    }

    @Test(.liveServers) func aDERCertificateIsTrustedLikeItsPEM() async throws {
        let server = try server()
        let pem = String(decoding: server.certificate, as: UTF8.self)
            .split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
        let der = try #require(Data(base64Encoded: pem))
        let response = try await CurlTransport().send(.to(server.url, tls: TLSPolicy(trustedCertificates: [der])))
        #expect(response.statusCode == 200)
    }

    @Test(.liveServers) func aWrongPinFailsWithPinningEvenWhenTheCertificateIsTrusted() async throws {
        let server = try server()
        let policy = TLSPolicy(pinnedKeyHashes: [wrongPin], trustedCertificates: [server.certificate])
        let error = await networkError { try await CurlTransport().send(.to(server.url, tls: policy)) }
        guard case .pinningFailed(let host)? = error else { Issue.record("got \(String(describing: error))"); return }
        #expect(host == "127.0.0.1")
    }

    @Test(.liveServers) func anUntrustedSelfSignedCertificateIsATLSFailure() async throws {
        let server = try server()
        let error = await networkError { try await CurlTransport().send(.to(server.url)) }
        guard case .tlsFailure? = error else { Issue.record("got \(String(describing: error))"); return }
    }

    @Test(.liveServers) func thePinAloneDoesNotMakeAnUntrustedCertificateAcceptable() async throws {
        let server = try server()
        let error = await networkError {
            try await CurlTransport().send(.to(server.url, tls: TLSPolicy(pinnedKeyHashes: [server.pin])))
        }
        guard case .tlsFailure? = error else { Issue.record("got \(String(describing: error))"); return }
    }

    @Test(.liveServers) func aPinForAnotherHostDoesNotAffectThisOne() async throws {
        let server = try server()
        let transport = CurlTransport()
        // The pinning plugin attaches a policy only to its hosts: "localhost" is pinned (wrongly), 127.0.0.1 is not.
        let pinned = TLSPolicy(pinnedKeyHashes: [wrongPin], trustedCertificates: [server.certificate])
        let trusted = TLSPolicy(trustedCertificates: [server.certificate])
        let error = await networkError { try await transport.send(.to(server.localhostURL, tls: pinned)) }
        guard case .pinningFailed(let host)? = error else { Issue.record("got \(String(describing: error))"); return }
        #expect(host == "localhost")
        let response = try await transport.send(.to(server.url, tls: trusted))
        #expect(response.statusCode == 200)
    }

    @Test(.liveServers) func aConnectionVerifiedUnderOnePolicyIsNotReusedToSkipAnother() async throws {
        let server = try server()
        let transport = CurlTransport()
        let trusted = TLSPolicy(pinnedKeyHashes: [server.pin], trustedCertificates: [server.certificate])
        // Opens a verified HTTP/2 connection that libcurl keeps for reuse.
        #expect(try await transport.send(.to(server.url, tls: trusted)).statusCode == 200)

        let wrong = TLSPolicy(pinnedKeyHashes: [wrongPin], trustedCertificates: [server.certificate])
        let pinError = await networkError { try await transport.send(.to(server.url, tls: wrong)) }
        guard case .pinningFailed? = pinError else { Issue.record("wrong pin on a warm pool: \(String(describing: pinError))"); return }

        let unpolicied = await networkError { try await transport.send(.to(server.url)) }
        guard case .tlsFailure? = unpolicied else { Issue.record("no policy on a warm pool: \(String(describing: unpolicied))"); return }

        let noHostCheckError = await networkError {
            try await transport.send(.to(server.url, tls: TLSPolicy(pinnedKeyHashes: [wrongPin], validatesHost: false)))
        }
        guard case .tlsFailure? = noHostCheckError else { Issue.record("got \(String(describing: noHostCheckError))"); return }

        // And the right policy still works afterwards, concurrently, multiplexed.
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<20 { group.addTask { try await transport.send(.to(server.url, tls: trusted)).statusCode } }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(statuses == Array(repeating: 200, count: 20))
    }

    @Test(
        .liveServers,
        .enabled(if: CurlTLSTests.loopbackAlias() != nil, "no host name other than localhost resolves to 127.0.0.1 here"))
    func hostVerificationIsOnByDefaultAndCanBeTurnedOffPerPolicy() async throws {
        let server = try server()
        // Reach the server under a name its certificate does not list (the machine's host name).
        let alias = try #require(Self.loopbackAlias())
        var components = URLComponents(url: server.url, resolvingAgainstBaseURL: false)!
        components.host = alias
        let url = components.url!
        let transport = CurlTransport()
        let error = await networkError { try await transport.send(.to(url, tls: TLSPolicy(trustedCertificates: [server.certificate]))) }
        guard case .tlsFailure? = error else { Issue.record("got \(String(describing: error))"); return }
        let relaxed = TLSPolicy(pinnedKeyHashes: [server.pin], trustedCertificates: [server.certificate], validatesHost: false)
        #expect(try await transport.send(.to(url, tls: relaxed)).statusCode == 200)
    }

    /// The machine's host name when it resolves to 127.0.0.1 and is not a name in the test certificate.
    static func loopbackAlias() -> String? {
        let name = ProcessInfo.processInfo.hostName
        guard !name.isEmpty, name != "localhost", name != "127.0.0.1" else { return nil }
        var hints = addrinfo()
        hints.ai_family = AF_INET
        var result: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(name, nil, &hints, &result) == 0, let first = result else { return nil }
        defer { freeaddrinfo(result) }
        guard let address = first.pointee.ai_addr else { return nil }
        let ipv4 = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr.s_addr }
        return ipv4 == inet_addr("127.0.0.1") ? name : nil
    }
}
