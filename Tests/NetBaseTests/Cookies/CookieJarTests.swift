import Foundation
import NetTestSupport
import Testing

@testable import NetBase

/// The storing and sending rules of RFC 6265, one rule per test, on an injected clock.
@Suite("CookieJar: storing and sending")
struct CookieJarTests {
    @Test("A cookie without Domain goes back to its host only, not to subdomains or parents")
    func hostOnly() {
        let jar = makeJar()
        jar.set("id=1", from: "https://example.com/")
        #expect(jar.header("https://example.com/a") == "id=1")
        #expect(jar.header("https://www.example.com/") == nil)
        #expect(jar.header("https://other.com/") == nil)
        #expect(jar.cookies(for: cookieURL("https://example.com/")).first?.isHostOnly == true)
    }

    @Test("Domain (a leading dot ignored, any case) reaches the domain and its subdomains")
    func domainCookie() {
        let jar = makeJar()
        jar.set("a=1; Domain=.Example.COM", from: "https://www.example.com/")
        #expect(jar.header("https://example.com/") == "a=1")
        #expect(jar.header("https://deep.api.example.com/") == "a=1")
        #expect(jar.header("https://notexample.com/") == nil)
        let cookie = jar.cookies(for: cookieURL("https://example.com/")).first
        #expect(cookie?.domain == "example.com")
        #expect(cookie?.isHostOnly == false)
    }

    @Test("Domain equal to the host makes a domain cookie; an empty Domain is ignored (host-only)")
    func domainEqualToHostAndEmpty() {
        let jar = makeJar()
        jar.set("a=1; Domain=example.com", "b=2; Domain=", from: "https://example.com/")
        #expect(jar.pairs("https://sub.example.com/") == ["a=1"])
        #expect(jar.pairs("https://example.com/") == ["a=1", "b=2"])
    }

    @Test("Path limits the URLs: /docs matches /docs and /docs/x, not /docsearch")
    func pathMatching() {
        let jar = makeJar()
        jar.set("p=1; Path=/docs", from: "https://example.com/")
        #expect(jar.header("https://example.com/docs") == "p=1")
        #expect(jar.header("https://example.com/docs/x/y") == "p=1")
        #expect(jar.header("https://example.com/docsearch") == nil)
        #expect(jar.header("https://example.com/") == nil)
    }

    @Test(
        "Without Path (or with one not starting with /) the default path is the request's directory",
        arguments: [
            ("https://example.com/a/b/c", "/a/b"), ("https://example.com/a", "/"), ("https://example.com", "/"),
            ("https://example.com/a/b/", "/a/b"), ("https://example.com/a/b?q=/x/y", "/a"),
        ])
    func defaultPath(from: String, expected: String) {
        let jar = makeJar()
        jar.set("d=1", "e=2; Path=relative", from: from)
        #expect(jar.allCookies.map(\.path) == [expected, expected])
    }

    @Test("A Secure cookie is only set from https and only sent over https")
    func secure() {
        let jar = makeJar()
        jar.set("s=1; Secure", from: "http://example.com/")
        #expect(jar.allCookies.isEmpty)
        jar.set("s=1; Secure", from: "https://example.com/")
        #expect(jar.header("https://example.com/") == "s=1")
        #expect(jar.header("http://example.com/") == nil)
    }

    @Test("HttpOnly and SameSite are read; HttpOnly is kept and changes nothing for requests")
    func httpOnlyAndSameSite() {
        let jar = makeJar()
        jar.set("h=1; HttpOnly; SameSite=Strict", from: "https://example.com/")
        #expect(jar.header("https://example.com/") == "h=1")
        #expect(jar.allCookies.first?.isHTTPOnly == true)
    }

    @Test("Max-Age sets the lifetime and wins over Expires, in either order")
    func maxAgeWinsOverExpires() {
        let clock = CookieTestClock()
        let jar = makeJar(clock: clock)
        jar.set(
            "a=1; Expires=Wed, 01 Jan 2100 00:00:00 GMT; Max-Age=60", "b=2; Max-Age=60; Expires=Thu, 01 Jan 1970 00:00:00 GMT",
            from: "https://example.com/")
        #expect(jar.pairs("https://example.com/") == ["a=1", "b=2"])
        #expect(jar.allCookies.first?.expiresAt == clock.now.addingTimeInterval(60))
        clock.advance(by: 61)
        #expect(jar.header("https://example.com/") == nil)
        #expect(jar.allCookies.isEmpty)
    }

    @Test("Expires in the future keeps the cookie until then; an unreadable one makes a session cookie")
    func expires() {
        let clock = CookieTestClock()  // 2023-11-14 22:13:20 UTC
        let jar = makeJar(clock: clock)
        jar.set("a=1; Expires=Wed, 15 Nov 2023 22:13:20 GMT", "b=2; Expires=soon", from: "https://example.com/")
        let cookies = jar.allCookies
        #expect(cookies.first { $0.name == "a" }?.expiresAt == clock.now.addingTimeInterval(86_400))
        #expect(cookies.first { $0.name == "b" }?.isSession == true)
        clock.advance(by: 86_400)
        #expect(jar.pairs("https://example.com/") == ["b=2"])
    }

    @Test("Lifetimes are capped at 400 days, however far Max-Age or Expires lie")
    func lifetimeCap() {
        let clock = CookieTestClock()
        let jar = makeJar(clock: clock)
        jar.set("a=1; Max-Age=99999999999999999999999", "b=1; Expires=Fri, 31 Dec 9999 23:59:59 GMT", from: "https://example.com/")
        for cookie in jar.allCookies { #expect(cookie.expiresAt == clock.now.addingTimeInterval(400 * 86_400)) }
        #expect(jar.allCookies.count == 2)
    }

    @Test("Max-Age=0, a negative Max-Age or a past Expires deletes the stored cookie")
    func deletion() {
        let jar = makeJar()
        for deleting in ["a=gone; Max-Age=0", "a=gone; Max-Age=-1", "a=gone; Expires=Thu, 01 Jan 1970 00:00:00 GMT"] {
            jar.set("a=1", from: "https://example.com/")
            #expect(jar.header("https://example.com/") == "a=1")
            jar.set(deleting, from: "https://example.com/")
            #expect(jar.allCookies.isEmpty, "\(deleting)")
        }
    }

    @Test("A malformed Max-Age is ignored (the cookie stays a session cookie)")
    func malformedMaxAge() {
        let jar = makeJar()
        jar.set("a=1; Max-Age=12abc", "b=1; Max-Age=", "c=1; Max-Age=-", from: "https://example.com/")
        #expect(jar.allCookies.map(\.isSession) == [true, true, true])
    }

    @Test("A later cookie with the same name, domain and path replaces the earlier one and keeps its creation date")
    func replacement() {
        let clock = CookieTestClock()
        let jar = makeJar(clock: clock)
        jar.set("a=1", from: "https://example.com/")
        let created = clock.now
        clock.advance(by: 10)
        jar.set("a=2", "a=3; Path=/x", from: "https://example.com/")
        #expect(jar.pairs("https://example.com/") == ["a=2"])
        #expect(jar.allCookies.first { $0.path == "/" }?.createdAt == created)
        #expect(jar.pairs("https://example.com/x") == ["a=3", "a=2"])
    }

    @Test("Cookies are sent longest path first, then oldest first")
    func ordering() {
        let clock = CookieTestClock()
        let jar = makeJar(clock: clock)
        jar.set("late=1; Path=/", from: "https://example.com/")
        clock.advance(by: -5)
        jar.set("early=1; Path=/", from: "https://example.com/")
        jar.set("deep=1; Path=/a/b", "mid=1; Path=/a", from: "https://example.com/")
        #expect(jar.header("https://example.com/a/b/c") == "deep=1; mid=1; early=1; late=1")
    }

    @Test("Name and value are trimmed; a value may be empty or hold '='")
    func nameValueParsing() {
        let jar = makeJar()
        jar.set("  spaced = v w ", "empty=", "eq=a=b", from: "https://example.com/")
        #expect(jar.header("https://example.com/") == "spaced=v w; empty=; eq=a=b")
    }

    @Test("removeAll and remove(name:domain:path:) forget cookies")
    func removal() {
        let jar = makeJar()
        jar.set("a=1", "a=2; Path=/x", "b=1", from: "https://example.com/")
        jar.set("c=1; Domain=example.org", from: "https://www.example.org/")
        jar.remove(name: "a", domain: "EXAMPLE.com", path: "/x")
        #expect(jar.pairs("https://example.com/x") == ["a=1", "b=1"])
        jar.remove(name: "a", domain: "example.com")
        #expect(jar.pairs("https://example.com/x") == ["b=1"])
        jar.remove(name: "c", domain: ".example.org")
        #expect(jar.allCookies.count == 1)
        jar.removeAll()
        #expect(jar.allCookies.isEmpty)
    }

    @Test("A transport's comma-joined Set-Cookie value is split into its cookies, Expires commas kept")
    func commaJoinedHeader() {
        let jar = makeJar()
        let header = "a=1; Expires=Wed, 01 Jan 2100 00:00:00 GMT; Path=/, b=2, c=x,y; Path=/"
        jar.storeCookies(fromSetCookie: header, receivedFrom: cookieURL("https://example.com/"))
        #expect(jar.pairs("https://example.com/") == ["a=1", "b=2", "c=x,y"])
        #expect(jar.allCookies.first { $0.name == "a" }?.isSession == false)
    }

    @Test("Cookie descriptions and mirrors never show the value")
    func descriptionHidesValue() {
        let jar = makeJar()
        jar.set("session=s3cr3t-value; Secure; HttpOnly", from: "https://example.com/")
        let cookie = jar.allCookies[0]
        #expect(!cookie.description.contains("s3cr3t"))
        #expect(cookie.description.contains("session"))
        var dumped = ""
        dump(cookie, to: &dumped)
        #expect(!dumped.contains("s3cr3t"))
    }
}
