import Foundation
import NetTestSupport
import Testing

@testable import NetBase

/// `Set-Cookie` fields kept apart by the transport are read whole (RFC 6265 §5.2: a field is one
/// cookie, commas and all); only a value a transport joined is split again, by a documented guess.
@Suite("CookieJar: Set-Cookie fields")
struct CookieJarFieldTests {
    @Test(
        "http-state: a field with commas is one cookie",
        arguments: [
            ("z=y, a=b", "z", "y, a=b"),
            (#"foo="bar, baz=qux""#, "foo", #""bar, baz=qux""#),
            ("a=1, b=2; Path=/", "a", "1, b=2"),
            ("foo,=bar", "foo,", "bar"),
        ])
    func fieldWithCommas(line: String, name: String, value: String) {
        let jar = makeJar()
        jar.storeCookies(fromSetCookieFields: [line], receivedFrom: cookieURL("https://example.com/"))
        #expect(jar.allCookies.map(\.name) == [name])
        #expect(jar.allCookies.map(\.value) == [value])
    }

    @Test(
        "RFC 6265 §5.2: a field without '=' in its name-value pair, or with an empty name, is ignored whole",
        arguments: ["=x", " =x; Path=/", "foo", "foo; a=b", ";a=b", ",", ""])
    func namelessFields(line: String) {
        let jar = makeJar()
        jar.storeCookies(fromSetCookieFields: [line, "ok=1"], receivedFrom: cookieURL("https://example.com/"))
        #expect(jar.pairs("https://example.com/") == ["ok=1"])
    }

    @Test("An exchange stores each Set-Cookie field of the response as one cookie")
    func exchangeReadsFields() async throws {
        let jar = makeJar()
        var request = Request(url: cookieURL("https://example.com/"), target: TestTarget())
        request.cookieJar = jar
        let headers = HTTPHeaders(allFields: [
            .init(name: "Set-Cookie", value: "z=y, a=b"), .init(name: "set-cookie", value: #"foo="bar, baz=qux""#),
        ])
        _ = try await CookieJar.exchange(request) { Response(statusCode: 200, headers: headers, request: $0) }
        #expect(jar.pairs("https://example.com/") == ["z=y, a=b", #"foo="bar, baz=qux""#])
    }

    @Test("A joined value is split only where a comma starts a new name=, never inside quotes")
    func joinedValueHeuristic() {
        #expect(CookieJar.splitJoinedSetCookie(#"foo="bar, baz=qux", a=1; Path=/"#) == [#"foo="bar, baz=qux""#, " a=1; Path=/"])
        #expect(CookieJar.splitJoinedSetCookie("a=1; Expires=Wed, 01 Jan 2100 00:00:00 GMT, b=2") == ["a=1; Expires=Wed, 01 Jan 2100 00:00:00 GMT", " b=2"])
        #expect(CookieJar.splitJoinedSetCookie("z=y, a=b") == ["z=y", " a=b"], "ambiguous: the raw fields are the only way to know")
    }
}
