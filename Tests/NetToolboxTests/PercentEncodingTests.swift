import NetToolbox
import Testing

@Suite("PercentEncoding")
struct PercentEncodingTests {
    static let tricky = [
        "", "plain", "a b", "100%", "%", "%25", "a+b", "a&b=c", "?#[]@!$&'()*+,;=", ":/", "~-._",
        "Zoë", "日本語", "🚀👩‍👩‍👧", "e\u{301}", "tab\tnew\nline", "\"quoted\"", "back\\slash", "null\u{0}byte",
    ]

    @Test("decode(encode(s)) == s", arguments: tricky)
    func roundTrip(text: String) {
        #expect(PercentEncoding.decode(PercentEncoding.encode(text)) == text)
    }

    @Test("encode leaves only RFC 3986 unreserved characters literal", arguments: tricky)
    func onlyUnreservedStayLiteral(text: String) {
        let encoded = PercentEncoding.encode(text)
        let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~%")
        #expect(encoded.allSatisfy { allowed.contains($0) }, "\(encoded)")
    }

    @Test(
        "known encodings",
        arguments: [
            ("a b", "a%20b"), ("a+b", "a%2Bb"), ("é", "%C3%A9"), ("🚀", "%F0%9F%9A%80"), ("~-._", "~-._"), ("/", "%2F"),
        ])
    func knownEncodings(text: String, encoded: String) {
        #expect(PercentEncoding.encode(text) == encoded)
    }

    @Test("decode rejects malformed escapes and non-UTF-8 bytes", arguments: ["%", "%2", "%zz", "a%g1", "%FF"])
    func decodeRejectsMalformed(text: String) {
        #expect(PercentEncoding.decode(text) == nil)
    }

    @Test("decode turns + into a space only when asked, and accepts lowercase hex")
    func decodeOptions() {
        #expect(PercentEncoding.decode("a+b") == "a+b")
        #expect(PercentEncoding.decode("a+b", plusAsSpace: true) == "a b")
        #expect(PercentEncoding.decode("%c3%a9") == "é")
    }
}
