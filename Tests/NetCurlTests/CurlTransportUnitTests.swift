import Foundation
import NetTestSupport
import NetCore
@testable import NetBase
@testable import NetCore
@testable import NetCurl
import Testing

@Suite("CurlTransport without servers")
struct CurlTransportUnitTests {
    @Test func advertisesTLSPolicyHTTP2ResumeProgressProxyAndCookieJar() {
        #expect(CurlTransport().capabilities == [.tlsPolicy, .http2, .resumableDownload, .progress, .proxy, .cookieJar])
    }

    @Test func defaultConfigurationFollowsTenRedirectsSecurelyWithVerboseOff() {
        let configuration = CurlTransport().configuration
        #expect(configuration.maxRedirects == 10)
        #expect(configuration.redirectPolicy == .secure)
        #expect(!configuration.verbose)
    }

    @Test(arguments: [
        (Duration.milliseconds(250), 250), (.seconds(2), 2000), (.microseconds(1), 1), (.zero, 1), (.nanoseconds(1_500_000), 2),
    ])
    func timeoutsBecomeWholeMillisecondsRoundedUpAndNeverZero(duration: Duration, expected: Int) {
        #expect(CurlTransfer.milliseconds(duration) == expected)
    }

    @Test func pinsBecomeSha256ListAcceptingPrefixedValues() throws {
        let a = Data(repeating: 1, count: 32).base64EncodedString()
        let b = Data(repeating: 2, count: 32).base64EncodedString()
        let option = try CurlTLS.pinnedKeyOption([a, "sha256//" + b], host: "example.com")
        #expect(option == "sha256//\(a);sha256//\(b)")
    }

    @Test func aPinThatIsNotASha256DigestIsRejected() {
        #expect(throws: NetworkError.self) { try CurlTLS.pinnedKeyOption(["not-a-pin"], host: "example.com") }
        let short = Data(repeating: 1, count: 20).base64EncodedString()
        #expect(throws: NetworkError.self) { try CurlTLS.pinnedKeyOption([short], host: "example.com") }
    }

    @Test func derCertificatesAreConvertedToPEMAndPEMKeptAsIs() throws {
        let der = Data([0x30, 0x82, 0x01, 0x0A] + [UInt8](repeating: 7, count: 100))
        let pem = "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----"
        let bundle = String(decoding: try CurlTLS.pemBundle([der, Data(pem.utf8)], host: "h"), as: UTF8.self)
        #expect(bundle.hasPrefix("-----BEGIN CERTIFICATE-----\n" + String(der.base64EncodedString().prefix(64)) + "\n"))
        #expect(bundle.hasSuffix(pem + "\n"))
        #expect(bundle.components(separatedBy: "-----BEGIN CERTIFICATE-----").count == 3)
        #expect(throws: NetworkError.self) { try CurlTLS.pemBundle([Data("garbage".utf8)], host: "h") }
    }

    @Test func contentRangeValuesAreParsed() {
        #expect(CurlDownload.rangeStart("bytes 100-999/1000") == 100)
        #expect(CurlDownload.completeLength("bytes 100-999/1000") == 1000)
        #expect(CurlDownload.completeLength("bytes */1000") == 1000)
        #expect(CurlDownload.rangeStart(nil) == nil)
        #expect(CurlDownload.completeLength("bytes */*") == nil)
    }

    @Test func anInvalidPinFailsClosedWithoutSending() async {
        let url = URL(string: "https://127.0.0.1:\(closedLoopbackPort())/")!
        let error = await networkError {
            try await CurlTransport().send(.to(url, tls: TLSPolicy(pinnedKeyHashes: ["nope"])))
        }
        guard case .tlsFailure(_, let reason, _)? = error else {
            Issue.record("expected tlsFailure, got \(String(describing: error))")
            return
        }
        #expect(reason.contains("not a base64 SHA-256"))
    }

    @Test func aClosedPortIsAConnectionFailure() async {
        let url = URL(string: "http://127.0.0.1:\(closedLoopbackPort())/")!
        let error = await networkError { try await CurlTransport().send(.to(url)) }
        guard case .connectionFailed(let host, _, _)? = error else {
            Issue.record("expected connectionFailed, got \(String(describing: error))")
            return
        }
        #expect(host == "127.0.0.1")
    }

    @Test func aMissingUploadFileFailsBeforeSending() async {
        let missing = URL(fileURLWithPath: "/nonexistent/netkit-\(UUID().uuidString)")
        let url = URL(string: "http://127.0.0.1:\(closedLoopbackPort())/")!
        let error = await networkError { try await CurlTransport().send(.to(url, method: .post, body: .file(missing))) }
        guard case .unreadableFile(_, let file, _, _)? = error else {
            Issue.record("expected unreadableFile, got \(String(describing: error))")
            return
        }
        #expect(file == missing)
    }

    @Test func aNonHTTPSchemeIsAnInvalidURL() async {
        let error = await networkError { try await CurlTransport().send(.to(URL(string: "ftp://127.0.0.1/file")!)) }
        guard case .invalidURL(_, let reason)? = error, reason.contains("ftp") else {
            Issue.record("expected invalidURL naming the scheme, got \(String(describing: error))")
            return
        }
    }

    @Test func aTaskCancelledBeforeSendingThrowsCancelled() async {
        let transport = CurlTransport()
        let url = URL(string: "http://127.0.0.1:\(closedLoopbackPort())/")!
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await transport.send(.to(url))
        }
        do {
            _ = try await task.value
            Issue.record("expected cancellation")
        } catch {
            #expect((error as? NetworkError)?.isCancellation == true)
        }
    }
}
