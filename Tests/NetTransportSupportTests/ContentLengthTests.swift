import Foundation
import NetBase
import NetTransportSupport
import Testing

/// `ResponseIntegrity.contentLength`: the one length a response announces, or why it is refused
/// (RFC 9110 §8.6, RFC 9112 §6.3). Both transports read `Content-Length` through it.
@Suite("Content-Length values")
struct ContentLengthTests {
    @Test(
        "a length, repeated identically or padded with spaces and tabs, is accepted",
        arguments: [
            (["0"], 0), (["95"], 95), ([" 95\t"], 95), (["95, 95"], 95), (["95", "95"], 95),
            (["9223372036854775807"], Int64.max), (["007"], 7),
        ] as [([String], Int64)])
    func accepted(values: [String], length: Int64) {
        guard case .success(let parsed) = ResponseIntegrity.contentLength(values) else {
            Issue.record("\(values) was refused")
            return
        }
        #expect(parsed == length)
    }

    @Test(
        "anything else is refused: signs, hex, other digits, other spaces, lists with a gap, overflow",
        arguments: [
            [""], [" "], ["+5"], ["-1"], ["0x10"], ["5 5"], ["5,"], [",5"], ["5,,5"], ["5, 6"], ["5", "6"],
            ["9223372036854775808"], ["99999999999999999999999"], ["٣"], ["\u{00A0}5"], ["5\u{0}"], ["5\r"], ["1e3"],
        ] as [[String]])
    func refused(values: [String]) {
        guard case .failure(let error) = ResponseIntegrity.contentLength(values) else {
            Issue.record("\(values) was accepted")
            return
        }
        guard case .invalidResponse(let reason, _) = error else {
            Issue.record("\(values): \(error)")
            return
        }
        #expect(reason.contains("Content-Length"))
    }
}
