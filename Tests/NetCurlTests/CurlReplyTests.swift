import Foundation
@testable import NetBase
@testable import NetCore
@testable import NetCurl
import Testing

@Suite("Header fields from the raw bytes the loop thread keeps")
struct CurlReplyTests {
    static func raw(_ lines: [String]) -> [UInt8] { Array(lines.map { $0 + "\r\n" }.joined().utf8) }

    @Test func fieldsKeepTheirOrderAndRepeatedNamesStaySeparateFields() {
        let headers = CurlReply.parseHeaders(
            Self.raw(["Content-Type: application/json", "Set-Cookie: a=1, c=3", "X-Empty:", "set-cookie:  b=2 ", "Vary: Accept"]))
        #expect(headers.map(\.name) == ["Content-Type", "Set-Cookie", "X-Empty", "set-cookie", "Vary"])
        #expect(headers.values(for: "SET-COOKIE") == ["a=1, c=3", "b=2"])
        #expect(headers["SET-COOKIE"] == "a=1, c=3, b=2")
        #expect(headers["x-empty"] == "")
        #expect(headers["Vary"] == "Accept")
    }

    @Test func aLongListOfRepeatedFieldsIsReadInLinearOrder() {
        var lines = (0..<96).map { "X-Field-\($0): \($0)" }
        lines += ["x-field-0: again", "X-FIELD-70: again", "Content-Length: 3"]
        let headers = CurlReply.parseHeaders(Self.raw(lines))
        #expect(headers.count == 99)
        #expect(headers["X-Field-0"] == "0, again")
        #expect(headers.values(for: "x-field-70") == ["70", "again"])
        #expect(headers["X-Field-95"] == "95")
        #expect(headers["content-length"] == "3")
    }

    @Test func valuesAreFoundByNameInAnyCaseWithoutOtherFieldsMatching() {
        let raw = Self.raw(["Content-Length: 12", "Content-Lengthy: 1", "content-length:12 ", "X: Content-Length: 9"])
        #expect(CurlReply.values(of: "Content-Length", in: raw) == ["12", "12"])
        #expect(CurlReply.value(of: "CONTENT-LENGTHY", in: raw) == "1")
        #expect(CurlReply.value(of: "Content-Range", in: raw) == nil)
    }
}
