import NetRedaction
import Foundation
import NetCore
import NetPlugins
import NetTestSupport
import Testing

/// The redaction model's entry points that take NetBase values (requests, headers), without a
/// provider: known secrets of a request, headers, free text and error helpers. The engine on its
/// own is tested in NetRedactionTests.
@Suite("Redaction model with requests")
struct RequestRedactionTests {
    private let placeholder = SecretRedactor.placeholder

    private func request(_ url: String, headers: HTTPHeaders = [:], body: RequestBody = .none) -> Request {
        var request = Request(url: URL(string: url)!, target: TestTarget())
        request.headers = headers
        request.body = body
        return request
    }

    @Test("NetPlugins' public Redaction matches names as RedactionRules does")
    func publicRedactionMatchesNames() {
        #expect(Redaction.default.redactsQueryItem("user[password]"))
        #expect(Redaction.default.redactsField("refresh_token"))
    }

    @Test("known secrets come from headers, query items, userinfo and body fields, in echoed spellings")
    func knownSecretsOfARequest() {
        let json = Data(#"{"login":{"password":"p\u00e4ss-json"},"user":"ann"}"#.utf8)
        let request = request(
            "https://ann:ui-secret@api.example.com/a?user[token]=q-secret",
            headers: ["Authorization": "Bearer hdr-secret", "Content-Type": "application/json"], body: .data(json))
        let secrets = KnownSecrets(request: request)
        let echo = #"hdr-secret q-secret ui-secret päss-json p\u00e4ss-json \#(Data("ann:ui-secret".utf8).base64EncodedString()) ann"#
        let scrubbed = secrets.scrub(echo)
        for leaked in ["hdr-secret", "q-secret", "ui-secret", "ss-json", "YW5u"] {
            #expect(!scrubbed.contains(leaked), "\(leaked) survives in \(scrubbed)")
        }
        #expect(scrubbed.hasSuffix(" ann"))
    }

    @Test("headers: secret names hidden, URL-valued headers redacted, other values scrubbed")
    func headers() {
        let headers: HTTPHeaders = ["Authorization": "Bearer x", "Location": "https://u:p@h/next?token=abc", "X-Echo": "said sec-value"]
        let redacted = SecretRedactor.redact(headers: headers, secrets: KnownSecrets(values: ["sec-value"]))
        #expect(redacted.map(\.value) == [placeholder, "https://h/next?token=%3Credacted%3E", "said \(placeholder)"])
    }

    @Test("error descriptions: the request's URL, userinfo and known secrets are replaced")
    func freeText() {
        let request = request("https://ann:ui-secret@api.example.com/a?access_token=q-secret&page=1", headers: ["Cookie": "sid=c-secret"])
        let text = "GET \(request.url.absoluteString) failed: server said c-secret"
        let redacted = SecretRedactor.redact(text: text, for: request)
        #expect(redacted == "GET https://api.example.com/a?access_token=%3Credacted%3E&page=1 failed: server said <redacted>")
    }

    @Test("error helpers: a request described without secrets, a body excerpt redacted before the cut")
    func errorHelpers() {
        let request = request("https://ann:ui-secret@api.example.com/a?token=q-secret", headers: ["Authorization": "Bearer hdr-secret"])
        #expect(SecretRedactor.describe(request) == "GET https://api.example.com/a?token=%3Credacted%3E")
        let body = Data((#"{"refresh_token":"r-secret-1","echo":"hdr-secret","pad":""# + String(repeating: "x", count: 300) + #""}"#).utf8)
        let excerpt = SecretRedactor.excerpt(of: body, contentType: "application/json", secrets: KnownSecrets(request: request), limit: 60)
        #expect(excerpt == #"{"refresh_token":"<redacted>","echo":"<redacted>","pad":"xxx…"#)
        // The cut falls inside the secret: it is still recognised, because redaction comes first.
        let crossing = SecretRedactor.excerpt(of: Data("abc hdr-secret".utf8), contentType: "text/plain", secrets: KnownSecrets(request: request), limit: 8)
        #expect(crossing == "abc <red…")
    }
}
