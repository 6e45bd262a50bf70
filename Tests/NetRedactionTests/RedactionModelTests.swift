import Foundation
import NetRedaction
import Testing

/// The redaction engine on its own: names, URLs, each body format and known secrets given as values.
@Suite("Redaction model")
struct RedactionModelTests {
    private let rules = RedactionRules.default
    private let placeholder = SecretRedactor.placeholder

    @Test("names match case-insensitively after brackets are stripped")
    func namesMatchAfterStrippingBrackets() {
        #expect(rules.redactsQueryItem("user[password]"))
        #expect(rules.redactsQueryItem("token[]"))
        #expect(rules.redactsQueryItem("token[0]"))
        #expect(rules.redactsQueryItem("Access_Token"))
        #expect(rules.redactsField("data[credentials][client_secret]"))
        #expect(rules.redactsHeader("AUTHORIZATION"))
        #expect(!rules.redactsQueryItem("user[name]"))
        #expect(!rules.redactsQueryItem("password_hint"))
        #expect(!rules.redactsQueryItem("page"))
    }

    @Test("URLs lose their userinfo and the values of secret query items, bracketed or encoded")
    func urlsAreRedacted() {
        let url = URL(string: "https://ann:pa55word@api.example.com/a?user%5Bpassword%5D=p1&token%5B%5D=t1&page=2#access_token=f1")!
        #expect(
            SecretRedactor.redact(url: url)
                == "https://api.example.com/a?user%5Bpassword%5D=%3Credacted%3E&token%5B%5D=%3Credacted%3E&page=2#access_token=%3Credacted%3E")
        #expect(
            SecretRedactor.redact(urlString: "http://u@h/?user[password]=p&token[]=t&token[]=u&q=1")
                == "http://h/?user[password]=%3Credacted%3E&token[]=%3Credacted%3E&token[]=%3Credacted%3E&q=1")
        let plain = URL(string: "https://api.example.com/a?page=2")!
        #expect(SecretRedactor.redact(url: plain) == plain.absoluteString)
        #expect(SecretRedactor.removingUserinfo(in: "GET http://u:p@h:8080/x failed; see ftp://x@y") == "GET http://h:8080/x failed; see ftp://y")
    }

    @Test("JSON bodies lose secret keys at any depth, keep their layout, and tolerate truncation")
    func jsonBodies() {
        let body = Data(#"{"user":{"name":"ann","password":"pw-1"},"items":[{"token":42}],"pass\u0077d":"pw-2","note":"ok"}"#.utf8)
        let redacted = String(decoding: SecretRedactor.redact(body: body, contentType: "application/json", secrets: .none), as: UTF8.self)
        #expect(redacted == #"{"user":{"name":"ann","password":"<redacted>"},"items":[{"token":"<redacted>"}],"pass\u0077d":"<redacted>","note":"ok"}"#)
        let truncated = Data(#"{"a": 1, "client_secret": "abcdef"#.utf8)
        let cut = String(decoding: SecretRedactor.redact(body: truncated, contentType: nil, secrets: .none), as: UTF8.self)
        #expect(cut == #"{"a": 1, "client_secret": "<redacted>""#)
    }

    @Test("form bodies lose the values of secret fields, bracketed names included")
    func formBodies() {
        let body = Data("name=ann&password=pw%20one&user%5Bpassword%5D=pw2&token[]=t3".utf8)
        let redacted = String(
            decoding: SecretRedactor.redact(body: body, contentType: "application/x-www-form-urlencoded; charset=utf-8", secrets: .none), as: UTF8.self)
        #expect(redacted == "name=ann&password=%3Credacted%3E&user%5Bpassword%5D=%3Credacted%3E&token[]=%3Credacted%3E")
    }

    @Test("multipart bodies lose the contents of parts with secret names, other parts stay")
    func multipartBodies() {
        let body = Data(
            ("--B\r\nContent-Disposition: form-data; name=\"name\"\r\n\r\nann\r\n"
                + "--B\r\nContent-Disposition: form-data; name=\"api_key\"\r\n\r\nk-123456\r\n"
                + "--B\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.bin\"\r\nContent-Type: application/octet-stream\r\n\r\n\u{1}\u{2}\r\n"
                + "--B--\r\n").utf8)
        let redacted = String(decoding: SecretRedactor.redact(body: body, contentType: "multipart/form-data; boundary=\"B\"", secrets: .none), as: UTF8.self)
        #expect(!redacted.contains("k-123456"))
        #expect(redacted.contains("name=\"api_key\"\r\n\r\n<redacted>\r\n--B\r\n"))
        #expect(redacted.contains("\r\n\r\nann\r\n"))
        #expect(redacted.hasSuffix("--B--\r\n"))
    }

    @Test("unstructured and binary bodies lose every known secret's bytes")
    func binaryBodies() {
        let secrets = KnownSecrets(values: ["tok-secret-9"])
        let body = Data([0x00, 0xFF]) + Data("tok-secret-9".utf8) + Data([0xFE])
        let redacted = SecretRedactor.redact(body: body, contentType: "application/octet-stream", secrets: secrets)
        #expect(redacted == Data([0x00, 0xFF]) + Data(placeholder.utf8) + Data([0xFE]))
        let untouched = Data([0x00, 0x01, 0x02])
        #expect(SecretRedactor.redact(body: untouched, contentType: "image/png", secrets: secrets) == untouched)
    }
}
