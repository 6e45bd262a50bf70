import Foundation
import NetTestSupport
import Testing

@testable import NetBase

/// `CookieJar(persistingTo:)`: cookies with an expiry survive a new jar, nothing else does, and
/// no file content can crash the jar or smuggle a control character into a request.
@Suite("CookieJar: persistence")
struct CookieJarPersistenceTests {
    @Test("Persistent cookies are written on change and loaded by a new jar; session cookies are not")
    func roundTrip() throws {
        let directory = try TemporaryDirectory()
        let file = directory.url.appendingPathComponent("nested/cookies.json")
        let clock = CookieTestClock()
        let jar = makeJar(clock: clock, file: file)
        jar.set("keep=1; Max-Age=3600; Secure; HttpOnly", "session=1", from: "https://example.com/app/login")
        jar.set("wide=1; Domain=example.com; Path=/; Expires=Wed, 01 Jan 2100 00:00:00 GMT", from: "https://www.example.com/")
        #expect(FileManager.default.fileExists(atPath: file.path))

        let reloaded = makeJar(clock: clock, file: file)
        #expect(reloaded.allCookies == jar.allCookies.filter { !$0.isSession })
        #expect(reloaded.pairs("https://example.com/app/x") == ["keep=1", "wide=1"])
        #expect(reloaded.allCookies.first { $0.name == "keep" }?.isSecure == true)
    }

    @Test("The file is readable by its owner only")
    func permissions() throws {
        let directory = try TemporaryDirectory()
        let file = directory.url.appendingPathComponent("cookies.json")
        makeJar(file: file).set("a=1; Max-Age=60", from: "https://example.com/")
        let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    }

    @Test("Deleting and removing cookies rewrites the file")
    func removalsPersist() throws {
        let directory = try TemporaryDirectory()
        let file = directory.url.appendingPathComponent("cookies.json")
        let jar = makeJar(file: file)
        jar.set("a=1; Max-Age=60", "b=1; Max-Age=60", "c=1; Max-Age=60", from: "https://example.com/")
        jar.set("a=1; Max-Age=0", from: "https://example.com/")
        jar.remove(name: "b", domain: "example.com")
        #expect(makeJar(file: file).pairs("https://example.com/") == ["c=1"])
        jar.removeAll()
        #expect(makeJar(file: file).allCookies.isEmpty)
    }

    @Test("The same cookie again rewrites nothing; a changed one does")
    func unchangedCookieNotRewritten() throws {
        let directory = try TemporaryDirectory()
        let file = directory.url.appendingPathComponent("cookies.json")
        let jar = makeJar(file: file)
        jar.set("a=1; Expires=Wed, 01 Jan 2100 00:00:00 GMT", from: "https://example.com/")
        try FileManager.default.removeItem(at: file)
        jar.set("a=1; Expires=Wed, 01 Jan 2100 00:00:00 GMT", from: "https://example.com/")
        #expect(!FileManager.default.fileExists(atPath: file.path))
        jar.set("a=2; Expires=Wed, 01 Jan 2100 00:00:00 GMT", from: "https://example.com/")
        #expect(makeJar(file: file).pairs("https://example.com/") == ["a=2"])
    }

    @Test("Cookies that expired while the app was away are not loaded")
    func expiredOnLoad() throws {
        let directory = try TemporaryDirectory()
        let file = directory.url.appendingPathComponent("cookies.json")
        let clock = CookieTestClock()
        makeJar(clock: clock, file: file).set("short=1; Max-Age=10", "long=1; Max-Age=1000", from: "https://example.com/")
        clock.advance(by: 100)
        #expect(makeJar(clock: clock, file: file).pairs("https://example.com/") == ["long=1"])
    }

    @Test(
        "A missing, corrupt, foreign or oversized file is an empty jar, and the next change replaces it",
        arguments: [
            Data(), Data("{".utf8), Data("null".utf8), Data([0xFF, 0xFE, 0x00]), Data(#"{"format":"other","version":1,"cookies":[]}"#.utf8),
            Data(#"{"format":"NetKit.CookieJar","version":2,"cookies":[]}"#.utf8), Data(repeating: 0x20, count: CookieFile.maxBytes + 1),
        ])
    func corruptFile(contents: Data) throws {
        let directory = try TemporaryDirectory()
        let file = try directory.file("cookies.json", contents: contents)
        let jar = makeJar(file: file)
        #expect(jar.allCookies.isEmpty)
        jar.set("a=1; Max-Age=60", from: "https://example.com/")
        #expect(makeJar(file: file).pairs("https://example.com/") == ["a=1"])
        #expect(makeJar(file: directory.url.appendingPathComponent("missing.json")).allCookies.isEmpty)
    }

    @Test("Edited entries that break a rule (control characters, separators, public suffixes, no name) are dropped")
    func tamperedEntries() throws {
        let directory = try TemporaryDirectory()
        func entry(name: String = "ok", value: String = "1", domain: String = "example.com", path: String = "/", hostOnly: Bool = true) -> String {
            let fields: [String: Any] = [
                "name": name, "value": value, "domain": domain, "path": path, "hostOnly": hostOnly, "secure": false, "httpOnly": false,
                "expires": 4_102_444_800.0, "created": 1_700_000_000.0, "lastAccess": 1_700_000_000.0,
            ]
            return String(decoding: try! JSONSerialization.data(withJSONObject: fields), as: UTF8.self)
        }
        let entries = [
            entry(), entry(name: "crlf", value: "1\r\nX-Injected: 1"), entry(name: "nul\u{0}"), entry(name: "semi", value: "1; b=2"),
            entry(name: ""), entry(name: "a=b"), entry(name: "suffix", domain: "com", hostOnly: false), entry(name: "dot", domain: ".example.com"),
            entry(name: "space", domain: "exa mple.com"), entry(name: "path", path: "relative"),
        ]
        let json = #"{"format":"NetKit.CookieJar","version":1,"cookies":["# + entries.joined(separator: ",") + "]}"
        let file = try directory.file("cookies.json", contents: Data(json.utf8))
        #expect(makeJar(file: file).allCookies.map(\.name) == ["ok"])
    }

    @Test("Limits apply to a loaded file too")
    func limitsOnLoad() throws {
        let directory = try TemporaryDirectory()
        let file = directory.url.appendingPathComponent("cookies.json")
        let big = makeJar(file: file)
        for index in 0..<10 { big.set("c\(index)=1; Max-Age=60", from: "https://example.com/") }
        #expect(makeJar(limits: CookieLimits(perDomain: 4, total: 10), file: file).allCookies.count == 4)
    }
}
