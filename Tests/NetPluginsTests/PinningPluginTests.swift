import NetToolbox
import Foundation
import NetCore
@testable import NetPlugins
import Testing
import NetTestSupport

@Suite("PinningPlugin")
struct PinningPluginTests {
    /// A self-signed P-256 certificate made for these tests, and its pin computed with
    /// `openssl x509 -pubkey -noout | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64`.
    static let certificate = """
        -----BEGIN CERTIFICATE-----
        MIIBezCCASGgAwIBAgIUPIRMsknOsphqo/8eHwIWfYMNV9IwCgYIKoZIzj0EAwIw
        EzERMA8GA1UEAwwIcGluLnRlc3QwHhcNMjYxMTIyMDI1NTQxWhcNMzYxMTE5MDI1
        NTQxWjATMREwDwYDVQQDDAhwaW4udGVzdDBZMBMGByqGSM49AgEGCCqGSM49AwEH
        A0IABO5rU02IIJtw6vYT3AaNMfIsx56GsCeydWcmjpzvD7Ab+7EkHxvWt9dIgxRl
        poDomNx2nOf1H1UpMUiQEbbxUw6jUzBRMB0GA1UdDgQWBBRkRezXsbejEP/sgjfE
        UpsHdHjkOTAfBgNVHSMEGDAWgBRkRezXsbejEP/sgjfEUpsHdHjkOTAPBgNVHRMB
        Af8EBTADAQH/MAoGCCqGSM49BAMCA0gAMEUCIEDNeHkBHIS2rPFX1qyKH5E6SI4n
        lgNCMkNmlcbYtfx4AiEA89fQOK7k0CB5m8n4Mfl7gu3uTAWlaxlcTovAOJS6X78=
        -----END CERTIFICATE-----
        """
    static let certificatePin = "7Lz5IJ12T7WMku4/TChmfT+jfOfqywrZfNrE35y8aWE="
    static let otherPin = Data(repeating: 7, count: 32).base64EncodedString()

    private func sentPolicy(_ url: String, plugin: PinningPlugin) async throws -> TLSPolicy? {
        let seen = Lines()
        let transport = stub { request in
            seen.sink(request.tls.map { $0.pinnedKeyHashes.joined(separator: ",") } ?? "none")
            return Response(statusCode: 200, request: request)
        }
        var target = TestTarget()
        target.baseURL = URL(string: url)!
        let response = try await Provider<TestTarget>(transport: transport, plugins: [plugin]).request(target)
        #expect(seen.all.count == 1)
        return response.request.tls
    }

    @Test func policyIsAttachedOnlyToMatchingHTTPSHosts() async throws {
        let plugin = PinningPlugin([try .init(host: "api.example.com", keyHashes: [Self.certificatePin])])
        #expect(try await sentPolicy("https://api.example.com", plugin: plugin)?.pinnedKeyHashes == [Self.certificatePin])
        #expect(try await sentPolicy("https://API.Example.com:8443", plugin: plugin)?.pinnedKeyHashes == [Self.certificatePin])
        #expect(try await sentPolicy("http://api.example.com", plugin: plugin) == nil)
        #expect(try await sentPolicy("https://other.example.com", plugin: plugin) == nil)
        #expect(try await sentPolicy("https://example.com", plugin: plugin) == nil)
    }

    @Test func wildcardsMatchOneLabelAndDoubleWildcardsAnyDepth() throws {
        let one = try PinningPlugin.Pin(host: "*.example.com", keyHashes: [Self.certificatePin])
        let any = try PinningPlugin.Pin(host: "**.example.com", keyHashes: [Self.otherPin])
        let cases: [(String, Bool, Bool)] = [
            ("a.example.com", true, true), ("a.b.example.com", false, true), ("example.com", false, true),
            ("badexample.com", false, false), ("a.example.com.evil.net", false, false),
        ]
        for (host, matchesOne, matchesAny) in cases {
            #expect((one.specificity(for: host, port: 443) != nil) == matchesOne, "*.example.com vs \(host)")
            #expect((any.specificity(for: host, port: 443) != nil) == matchesAny, "**.example.com vs \(host)")
        }
    }

    @Test func aPinWithAPortAppliesToThatPortOnlyAndWinsOverAPortlessOne() throws {
        let identity = ClientIdentity.pem(certificate: Data("cert".utf8), key: Data("key".utf8))
        let plugin = PinningPlugin([
            try .init(host: "api.example.com", keyHashes: [Self.otherPin]),
            try .init(host: "api.example.com", port: 8443, keyHashes: [Self.certificatePin], clientIdentity: identity),
        ])
        #expect(plugin.pin(for: URL(string: "https://api.example.com:8443/x")!)?.clientIdentity == identity)
        #expect(plugin.pin(for: URL(string: "https://api.example.com/x")!)?.clientIdentity == nil)
        #expect(plugin.pin(for: URL(string: "https://api.example.com:9443/x")!)?.keyHashes == [Self.otherPin])
        let onlyPort = PinningPlugin([try .init(host: "api.example.com", port: 443, clientIdentity: identity)])
        #expect(onlyPort.pin(for: URL(string: "https://api.example.com/x")!) != nil, "443 is https's default port")
        #expect(onlyPort.pin(for: URL(string: "https://api.example.com:8443/x")!) == nil)
    }

    @Test func aHostWithAPortOrBracketsIsRefusedOrNormalisedNeverSilentlyUnmatched() throws {
        for bad in ["api.example.com:8443", "[api.example.com]", "user@api.example.com", "api.example.com/", "1.2.3.4:443", "[::1]:443"] {
            #expect(throws: PinningPlugin.ConfigurationError.invalidHostPattern(bad)) { try PinningPlugin.Pin(host: bad, keyHashes: [Self.certificatePin]) }
        }
        for spelling in ["[::1]", "::1", "[::1]."] {
            let plugin = PinningPlugin([try .init(host: spelling, keyHashes: [Self.certificatePin])])
            #expect(plugin.pin(for: URL(string: "https://[::1]:8443/x")!) != nil, "\(spelling)")
        }
    }

    @Test func trailingDotsAreIgnoredOnBothSides() throws {
        let plugin = PinningPlugin([try .init(host: "API.example.com.", keyHashes: [Self.certificatePin])])
        #expect(plugin.pins[0].host == "api.example.com")
        #expect(plugin.pin(for: URL(string: "https://api.example.com./x")!) != nil)
    }

    @Test func configurationMistakesHaveTheirOwnCasesAndSayWhatToFix() throws {
        func error(_ make: () throws(PinningPlugin.ConfigurationError) -> Void) -> PinningPlugin.ConfigurationError? {
            do { try make() } catch { return error }
            return nil
        }
        #expect(
            error { () throws(PinningPlugin.ConfigurationError) in _ = try PinningPlugin.Pin(host: "a.*.example", keyHashes: [Self.certificatePin]) }
                == .invalidHostPattern("a.*.example"))
        #expect(
            error { () throws(PinningPlugin.ConfigurationError) in _ = try PinningPlugin.Pin(host: "a.example", port: 0, keyHashes: [Self.certificatePin]) }
                == .invalidPort(0))
        #expect(error { () throws(PinningPlugin.ConfigurationError) in _ = try PinningPlugin.Pin(host: "a.example") } == .emptyPin(host: "a.example"))
        #expect(
            error { () throws(PinningPlugin.ConfigurationError) in _ = try PinningPlugin.Pin(host: "a.example", keyHashes: ["xyz"]) }
                == .invalidKeyHash(host: "a.example", value: "xyz"))
        #expect(
            error { () throws(PinningPlugin.ConfigurationError) in _ = try PinningPlugin.Pin(host: "a.example", certificates: [Data("no".utf8)]) }
                == .invalidCertificate(host: "a.example", position: 1))
        #expect(error { () throws(PinningPlugin.ConfigurationError) in _ = try PinningPlugin.pin(ofCertificate: Data("no".utf8)) } == .notACertificate)
        #expect(PinningPlugin.ConfigurationError.invalidPort(0).description.contains("between 1 and 65535"))
        #expect(PinningPlugin.ConfigurationError.invalidKeyHash(host: "h", value: "v").description.contains("pin(ofCertificateAt:)"))
    }

    @Test func exactHostWinsOverWildcardAndLongerWildcardWins() throws {
        let plugin = PinningPlugin([
            try .init(host: "**.example.com", keyHashes: [Self.otherPin]),
            try .init(host: "*.api.example.com", keyHashes: [Data(repeating: 1, count: 32).base64EncodedString()]),
            try .init(host: "v1.api.example.com", keyHashes: [Self.certificatePin]),
        ])
        #expect(plugin.pin(for: URL(string: "https://v1.api.example.com/x")!)?.host == "v1.api.example.com")
        #expect(plugin.pin(for: URL(string: "https://v2.api.example.com/x")!)?.host == "*.api.example.com")
        #expect(plugin.pin(for: URL(string: "https://cdn.example.com/x")!)?.host == "**.example.com")
    }

    @Test func pinsAcceptPrefixesAndCertificatesAreAttached() async throws {
        let pem = Data(Self.certificate.utf8)
        let plugin = PinningPlugin([
            try .init(
                host: "127.0.0.1", keyHashes: ["sha256//" + Self.certificatePin, "sha256/" + Self.otherPin],
                certificates: [pem], validatesHost: false)
        ])
        let policy = try #require(try await sentPolicy("https://127.0.0.1:8443", plugin: plugin))
        #expect(policy.pinnedKeyHashes == [Self.certificatePin, Self.otherPin])
        #expect(policy.trustedCertificates == [pem])
        #expect(policy.validatesHost == false)
    }

    @Test(arguments: ["", "*.", "a.*.com"])
    func invalidHostPatternsAreRejected(host: String) {
        #expect(throws: PinningPlugin.ConfigurationError.self) { try PinningPlugin.Pin(host: host, keyHashes: [Self.certificatePin]) }
    }

    @Test func invalidPinsAndMissingPinsAreRejected() {
        #expect(throws: PinningPlugin.ConfigurationError.self) { try PinningPlugin.Pin(host: "a.example", keyHashes: ["not-base64"]) }
        #expect(throws: PinningPlugin.ConfigurationError.self) { try PinningPlugin.Pin(host: "a.example", keyHashes: [Data(count: 20).base64EncodedString()]) }
        #expect(throws: PinningPlugin.ConfigurationError.self) { try PinningPlugin.Pin(host: "a.example") }
        #expect(throws: PinningPlugin.ConfigurationError.self) { try PinningPlugin.Pin(host: "a.example", certificates: [Data("hello".utf8)]) }
    }

    @Test func pinOfCertificateMatchesOpenSSLForPEMAndDER() throws {
        #expect(try PinningPlugin.pin(ofCertificate: Data(Self.certificate.utf8)) == Self.certificatePin)
        let der = try #require(Certificate.der(from: Data(Self.certificate.utf8)))
        #expect(try PinningPlugin.pin(ofCertificate: Data(der)) == Self.certificatePin)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("netkit-pin-\(UUID()).pem")
        try Data(Self.certificate.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        #expect(try PinningPlugin.pin(ofCertificateAt: file) == Self.certificatePin)
        #expect(throws: PinningPlugin.ConfigurationError.self) { try PinningPlugin.pin(ofCertificate: Data([0x30, 0x03, 0x02, 0x01, 0x01])) }
        #expect(throws: PinningPlugin.ConfigurationError.self) { try PinningPlugin.pin(ofCertificateAt: file.appendingPathExtension("missing")) }
    }

    @Test func sha256MatchesKnownVectors() {
        func hex(_ text: String) -> String { SHA256.hash(Array(text.utf8)).map { String(format: "%02x", $0) }.joined() }
        #expect(hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    @Test func pinnedRequestThroughURLSessionTransportFailsClosedWithoutSending() async throws {
        let plugin = PinningPlugin([try .init(host: "127.0.0.1", keyHashes: [Self.certificatePin])])
        let sent = Counter()
        struct Watch: Plugin {
            let sent: Counter
            func succeed(_ response: Response, for request: Request) async -> SucceedAction { sent.increment(); return .proceed }
        }
        var target = TestTarget()
        // Nothing listens on port 9 (discard); a request that were sent would fail with a connection error instead.
        target.baseURL = URL(string: "https://127.0.0.1:9")!
        let provider = Provider<TestTarget>(transport: URLSessionTransport(), plugins: [plugin, Watch(sent: sent)])
        do {
            _ = try await provider.request(target)
            Issue.record("a pinned request through URLSessionTransport succeeded")
        } catch {
            guard case .tlsPolicyUnsupported(let transport, let host) = error else {
                Issue.record("expected tlsPolicyUnsupported, got \(error)")
                return
            }
            #expect(transport == "URLSessionTransport")
            #expect(host == "127.0.0.1")
        }
        #expect(sent.count == 0)
    }
}
