import Foundation
import NetTestSupport
import Testing

@testable import NetBase

/// What a hostile server must not achieve with Set-Cookie: cookies for other sites, header
/// injection, or unbounded memory.
@Suite("CookieJar: hostile servers")
struct CookieJarSecurityTests {
    @Test(
        "Domain set to a public suffix is refused",
        arguments: [
            ("https://shop.example.com/", "com"), ("https://a.example.co.uk/", "co.uk"), ("https://me.github.io/", "github.io"),
            ("https://app.herokuapp.com/", "herokuapp.com"), ("https://x.appspot.com/", ".appspot.com"),
            ("https://site.example.dev/", "dev"), ("https://a.b.example.com.au/", "com.au"),
        ])
    func publicSuffixRefused(from: String, domain: String) {
        let jar = makeJar()
        jar.set("evil=1; Domain=\(domain)", from: from)
        #expect(jar.allCookies.isEmpty)
    }

    @Test("A host that is itself a listed suffix may name itself, and gets a host-only cookie")
    func publicSuffixHostItself() {
        let jar = makeJar()
        jar.set("a=1; Domain=github.io", from: "https://github.io/")
        #expect(jar.header("https://github.io/") == "a=1")
        #expect(jar.header("https://me.github.io/") == nil)
        #expect(jar.allCookies.first?.isHostOnly == true)
    }

    @Test("A Domain of another site, or of a subdomain, is refused")
    func nonMatchingDomain() {
        let jar = makeJar()
        jar.set("a=1; Domain=other.com", "b=1; Domain=api.example.com", "c=1; Domain=ample.com", from: "https://example.com/")
        #expect(jar.allCookies.isEmpty)
    }

    @Test(
        "IP-address hosts get host-only cookies only; any other Domain is refused",
        arguments: ["http://127.0.0.1:8080/", "http://[::1]:8080/", "http://10.0.0.1/", "http://127.1/"])
    func ipHosts(from: String) {
        let jar = makeJar()
        let host = CookieDomain.host(of: cookieURL(from))!
        jar.set("a=1; Domain=0.0.1", "b=1; Domain=1", "c=1; Domain=\(host)", "d=1", from: from)
        #expect(jar.pairs(from) == ["c=1", "d=1"])
        #expect(jar.allCookies.allSatisfy { $0.isHostOnly })
    }

    @Test("127.0.0.1 and localhost are different hosts")
    func loopbackNames() {
        let jar = makeJar()
        jar.set("a=1", from: "http://127.0.0.1:1/")
        jar.set("b=1; Domain=localhost", from: "http://localhost:2/")
        #expect(jar.header("http://localhost:3/") == "b=1")
        #expect(jar.header("http://127.0.0.1:4/") == "a=1")
    }

    @Test(
        "Lines with control characters (CR, LF, NUL, others) are ignored whole",
        arguments: ["a=1\r\nX-Injected: 1", "a=1\rb", "a=1\nb", "a=\u{0}1", "a=1; Path=/\u{1}", "a\u{7F}=1", "a=1\u{1B}[31m"])
    func controlCharacters(line: String) {
        let jar = makeJar()
        jar.storeCookies(fromSetCookie: line, receivedFrom: cookieURL("https://example.com/"))
        #expect(jar.allCookies.isEmpty)
    }

    @Test("A tab is allowed; lines without '=' or with an empty name are ignored", arguments: ["novalue", "=v", " =v", ""])
    func emptyNames(line: String) {
        let jar = makeJar()
        jar.set(line, "t=a\tb", from: "https://example.com/")
        #expect(jar.pairs("https://example.com/") == ["t=a\tb"])
    }

    @Test("RFC 6265 §6.1: name and value of 4096 bytes are kept whatever the attributes add; 4097 are not")
    func maxSize() {
        let jar = makeJar()
        let attributes = "; Path=/; Secure; HttpOnly; SameSite=Lax; Max-Age=3600"
        let rfcExample = "k=" + String(repeating: "v", count: 4089) + "; Path=/"  // 4096 bytes as the RFC measures
        let fits = "big=" + String(repeating: "v", count: 4096 - 3) + attributes
        let tooBig = "huge=" + String(repeating: "v", count: 4096 - 3) + attributes
        jar.set(rfcExample, fits, tooBig, from: "https://example.com/")
        #expect(Set(jar.allCookies.map(\.name)) == ["k", "big"])
    }

    @Test("An attribute value over 1024 bytes is ignored; the cookie is kept with the default")
    func longAttributeValue() {
        let jar = makeJar()
        jar.set("a=1; Path=/" + String(repeating: "p", count: 1100) + "; Secure", from: "https://example.com/dir/page")
        let cookie = jar.allCookies.first
        #expect(cookie?.name == "a")
        #expect(cookie?.path == "/dir", "the long Path is ignored, so the default path applies")
        #expect(cookie?.isSecure == true, "the attributes after it are still read")
    }

    @Test("A line over the protective bound is ignored without being read")
    func protectiveBound() {
        let jar = makeJar()
        jar.set("a=1" + String(repeating: "; Comment=x", count: 2000), from: "https://example.com/")
        #expect(jar.allCookies.isEmpty)
    }

    @Test("At most 50 cookies per domain: the least recently used goes first")
    func perDomainLimit() {
        let clock = CookieTestClock()
        let jar = makeJar(clock: clock)
        jar.set("c0=1; Path=/keep", from: "https://example.com/")
        for index in 1..<50 {
            clock.advance(by: 1)
            jar.set("c\(index)=1; Path=/other", from: "https://example.com/")
        }
        clock.advance(by: 1)
        #expect(jar.header("https://example.com/keep") == "c0=1")  // c0, the oldest, is used now
        clock.advance(by: 1)
        jar.set("new=1", from: "https://example.com/")
        let names = Set(jar.allCookies.map(\.name))
        #expect(names.count == 50)
        #expect(names.contains("new") && names.contains("c0"))
        #expect(!names.contains("c1"))
    }

    @Test("At most 3000 cookies in all (here 20), across domains, least recently used first")
    func totalLimit() {
        let clock = CookieTestClock()
        let jar = makeJar(clock: clock, limits: CookieLimits(perDomain: 5, total: 20))
        for site in 0..<6 {
            for index in 0..<5 {
                jar.set("c\(index)=1", from: "https://site\(site).example/")
                clock.advance(by: 1)
            }
        }
        #expect(jar.allCookies.count == 20)
        #expect(jar.cookies(for: cookieURL("https://site0.example/")).isEmpty)
        #expect(jar.cookies(for: cookieURL("https://site5.example/")).count == 5)
        #expect(CookieLimits().perDomain == 50 && CookieLimits().total == 3000)
    }

    @Test("One header with 10,000 Set-Cookie lines keeps 50 cookies")
    func cookieFlood() {
        let jar = makeJar()
        let header = (0..<10_000).map { "flood\($0)=\($0)" }.joined(separator: ", ")
        jar.storeCookies(fromSetCookie: header, receivedFrom: cookieURL("https://example.com/"))
        #expect(jar.allCookies.count == 50)
        #expect(jar.header("https://example.com/")?.contains("flood9999=9999") == true)
    }

    @Test("An http response cannot replace, delete or shadow a Secure cookie (RFC 6265bis)")
    func secureNotOverwrittenFromHTTP() {
        let jar = makeJar()
        jar.set("sid=secure; Secure", from: "https://example.com/")
        jar.set("sid=plain", "sid=gone; Max-Age=0", "sid=deeper; Path=/account", "sid=wide; Domain=example.com", from: "http://example.com/")
        #expect(jar.pairs("https://example.com/account") == ["sid=secure"])
        jar.set("other=1", from: "http://example.com/")
        #expect(jar.pairs("http://example.com/") == ["other=1"])
    }

    @Test("__Secure- and __Host- prefixes are kept only when their conditions hold")
    func namePrefixes() {
        let jar = makeJar()
        jar.set(
            "__Secure-a=1", "__Secure-b=1; Secure", "__Host-c=1; Secure; Path=/", "__Host-d=1; Secure; Domain=example.com; Path=/",
            "__Host-e=1; Secure; Path=/x", "__host-f=1", from: "https://example.com/")
        #expect(jar.allCookies.map(\.name).sorted() == ["__Host-c", "__Secure-b"])
    }
}
