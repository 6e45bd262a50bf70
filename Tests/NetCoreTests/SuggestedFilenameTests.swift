import Foundation
import NetCore
import NetTestSupport
import Testing

/// A server-chosen file name can never leave the folder it is used in.
@Suite("Response.suggestedFilename")
struct SuggestedFilenameTests {
    func name(_ disposition: String?, path: String = "files/report.pdf") -> String? {
        var headers: HTTPHeaders = [:]
        if let disposition { headers["Content-Disposition"] = disposition }
        let request = Request(url: URL(string: "https://api.example.com/\(path)")!, target: TestTarget())
        return Response(statusCode: 200, headers: headers, request: request).suggestedFilename
    }

    @Test("Plain, quoted and RFC 8187 names; the URL's last component as a fallback")
    func ordinaryNames() {
        #expect(name(#"attachment; filename="annual report.pdf""#) == "annual report.pdf")
        #expect(name("attachment; filename=data.csv") == "data.csv")
        #expect(name(#"attachment; filename="fallback.txt"; filename*=UTF-8''%E2%82%AC%20rates.txt"#) == "€ rates.txt")
        #expect(name(nil) == "report.pdf")
    }

    @Test(
        "Hostile names lose their paths, control characters and leading dots",
        arguments: [
            (#"attachment; filename="../../etc/passwd""#, "passwd"),
            (#"attachment; filename="..\\..\\win.ini""#, "win.ini"),
            (#"attachment; filename=".bashrc""#, "bashrc"),
            ("attachment; filename*=UTF-8''..%2F..%2Fescape.txt", "escape.txt"),
            ("attachment; filename=\"a\u{0}b\r\nc.txt\"", "abc.txt"),
        ])
    func hostileNames(disposition: String, expected: String) {
        #expect(name(disposition) == expected)
    }

    @Test("Nothing usable left is nil; very long names are cut to 255 bytes")
    func emptyAndLong() {
        #expect(name(#"attachment; filename="..""#, path: "") == nil)
        let long = String(repeating: "é", count: 300)
        #expect((name("attachment; filename=\"\(long)\"")?.utf8.count ?? 0) <= 255)
    }
}
