import Foundation
import NetCore
import NetCurl
import Testing
import NetTestSupport

@Suite("CurlTransport maps failures to distinct NetworkErrors")
struct CurlErrorMappingTests {
    private func failure(_ path: String, timeout: Duration = .seconds(10)) async throws -> NetworkError? {
        let fault = try TestServers.require("NETKIT_FAULT_URL")
        let url = URL(string: fault.absoluteString + path)!
        return await networkError { try await CurlTransport().send(.to(url, timeout: timeout)) }
    }

    @Test("libcurl's code and message are the underlying error", .liveServers)
    func curlErrorIsTheCause() async throws {
        let error = try #require(await failure("/reset-after-headers"))
        let cause = error.underlyingError as? CurlError
        #expect(cause?.code == 56 || cause?.code == 18, "\(String(describing: error.underlyingError))")  // RECV_ERROR or PARTIAL_FILE
        #expect(cause?.message.isEmpty == false)
    }

    @Test(.liveServers) func aResetAfterHeadersIsALostConnection() async throws {
        let error = try #require(await failure("/reset-after-headers"))
        guard case .connectionLost = error else { Issue.record("got \(error)"); return }
    }

    @Test(.liveServers) func aResetBeforeHeadersIsALostConnection() async throws {
        let error = try #require(await failure("/reset-before-headers"))
        guard case .connectionLost = error else { Issue.record("got \(error)"); return }
    }

    @Test(.liveServers) func aBodyShorterThanItsContentLengthIsTruncated() async throws {
        let error = try #require(await failure("/truncated"))
        guard case .truncatedResponse(let expected, let received) = error else { Issue.record("got \(error)"); return }
        #expect(expected == 1000)
        #expect(received == 100)
    }

    @Test(.liveServers) func aChunkedBodyCutShortIsNotASuccess() async throws {
        let error = try #require(await failure("/cut-chunked"))
        switch error {
        case .truncatedResponse, .connectionLost: break
        default: Issue.record("got \(error)")
        }
    }

    @Test(.liveServers) func aHangingServerTimesOut() async throws {
        let error = try #require(await failure("/hang", timeout: .milliseconds(500)))
        guard case .timedOut = error else { Issue.record("got \(error)"); return }
    }

    @Test(.liveServers) func corruptGzipIsAnInvalidResponse() async throws {
        let error = try #require(await failure("/corrupt-gzip"))
        guard case .invalidResponse = error else { Issue.record("got \(error)"); return }
    }

    @Test(.liveServers) func aRedirectLoopIsRefused() async throws {
        let error = try #require(await failure("/redirect-loop"))
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
