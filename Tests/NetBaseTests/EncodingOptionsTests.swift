import Foundation
import NetBase
import Testing

@Suite("Encoding options")
struct EncodingOptionsTests {
    @Test("+ for spaces is opt-in; a literal + is always %2B")
    func plusForSpaces() {
        let parameters: Parameters = ["q": "swift on linux", "op": "a+b"]
        #expect(ParameterEncoding().encode(parameters) == "q=swift%20on%20linux&op=a%2Bb")
        #expect(ParameterEncoding(dictionaryStyle: .brackets, spaceStyle: .plus).encode(parameters) == "q=swift+on+linux&op=a%2Bb")
    }

    @Test("Nested dictionaries with dots or brackets")
    func dottedKeys() {
        let parameters: Parameters = ["user": ParameterValue.dictionary(["name": "ada", "langs": ["swift"]])]
        #expect(ParameterEncoding().encode(parameters) == "user%5Bname%5D=ada&user%5Blangs%5D%5B%5D=swift")
        #expect(ParameterEncoding(dictionaryStyle: .dots).encode(parameters) == "user.name=ada&user.langs%5B%5D=swift")
    }

    @Test("nil is a bare key by default, or dropped")
    func nilValues() {
        let parameters: Parameters = ["a": 1, "flag": ParameterValue.null, "b": 2]
        #expect(ParameterEncoding().encode(parameters) == "a=1&flag&b=2")
        #expect(ParameterEncoding(dictionaryStyle: .brackets, nilStyle: .dropped).encode(parameters) == "a=1&b=2")
    }

    @Test("Basic credentials encode per RFC 7617 and never print the password")
    func basic() {
        let credentials = Authorization.basic(user: "Aladdin", password: "open sesame")
        #expect(credentials.headerValue == "Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==")
        #expect(!"\(credentials)".contains("open sesame"))
        #expect(!String(reflecting: credentials).contains("open sesame"))
        #expect(Authorization.bearer("t0k3n").headerValue == "Bearer t0k3n")
        #expect(!"\(Authorization.bearer("t0k3n"))".contains("t0k3n"))
    }
}
