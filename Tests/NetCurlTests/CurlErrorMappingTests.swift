import Foundation
import NetCore
import NetCurl
import Testing
import NetTestSupport

@Suite("CurlTransport maps failures to distinct NetworkErrors")
struct CurlErrorMappingTests {
    private func failure(_ path: String, timeout: Duration = .seconds(10)) async -> NetworkError? {
        guard let fault = TestServers.urlOrSkip("NETKIT_FAULT_URL") else { return nil }
        let url = URL(string: fault.absoluteString + path)!
        return await networkError { try await CurlTransport().send(.to(url, timeout: timeout)) }
    }

    @Test("libcurl's code and message are the underlying error")
    func curlErrorIsTheCause() async {
        guard let error = await failure("/reset-after-headers") else { return }
        let cause = error.underlyingError as? CurlError
        #expect(cause?.code == 56 || cause?.code == 18, "\(String(describing: error.underlyingError))")  // RECV_ERROR or PARTIAL_FILE
        #expect(cause?.message.isEmpty == false)
    }

    @Test func aResetAfterHeadersIsALostConnection() async {
        guard let error = await failure("/reset-after-headers") else { return }
        guard case .connectionLost = error else { Issue.record("got \(error)"); return }
    }

    @Test func aResetBeforeHeadersIsALostConnection() async {
        guard let error = await failure("/reset-before-headers") else { return }
        guard case .connectionLost = error else { Issue.record("got \(error)"); return }
    }

    @Test func aBodyShorterThanItsContentLengthIsTruncated() async {
        guard let error = await failure("/truncated") else { return }
        guard case .truncatedResponse(let expected, let received) = error else { Issue.record("got \(error)"); return }
        #expect(expected == 1000)
        #expect(received == 100)
    }

    @Test func aChunkedBodyCutShortIsNotASuccess() async {
        guard let error = await failure("/cut-chunked") else { return }
        switch error {
        case .truncatedResponse, .connectionLost: break
        default: Issue.record("got \(error)")
        }
    }

    @Test func aHangingServerTimesOut() async {
        guard let error = await failure("/hang", timeout: .milliseconds(500)) else { return }
        guard case .timedOut = error else { Issue.record("got \(error)"); return }
    }

    @Test func corruptGzipIsAnInvalidResponse() async {
        guard let error = await failure("/corrupt-gzip") else { return }
        guard case .invalidResponse = error else { Issue.record("got \(error)"); return }
    }

    @Test func aRedirectLoopIsRefused() async {
        guard let error = await failure("/redirect-loop") else { return }
        guard case .redirectRefused(let reason) = error else { Issue.record("got \(error)"); return }
        #expect(reason.contains("10 redirects"))
    }

    @Test func anUnknownHostIsADNSFailure() async {
        let error = await networkError {
            try await CurlTransport().send(.to(URL(string: "http://netkit-no-such-host.invalid/")!, timeout: .seconds(10)))
        }
        guard case .dnsFailure(let host, _)? = error else { Issue.record("got \(String(describing: error))"); return }
        #expect(host == "netkit-no-such-host.invalid")
    }
}
