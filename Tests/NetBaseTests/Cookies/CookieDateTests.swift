import Foundation
import NetTestSupport
import Testing

@testable import NetBase

/// The cookie-date algorithm of RFC 6265 §5.1.1 on the forms servers send.
@Suite("CookieJar: Expires dates")
struct CookieDateTests {
    /// 1994-11-06 08:49:37 UTC.
    static let expected = Date(timeIntervalSince1970: 784_111_777)

    @Test(
        "Every common form reads as the same date",
        arguments: [
            "Sun, 06 Nov 1994 08:49:37 GMT",  // RFC 1123
            "Sunday, 06-Nov-94 08:49:37 GMT",  // RFC 850
            "Sun Nov  6 08:49:37 1994",  // asctime
            "Sun, 06-Nov-1994 08:49:37 GMT",  // Netscape
            "06 nov 1994 08:49:37",  // no weekday, lower case
            "Sun, 6 November 1994 8:49:37 UTC",  // long month, one-digit fields
            "1994 Nov 06 08:49:37",  // year first
            "Sun,06-Nov-1994 08:49:37GMT",  // little white space
        ])
    func forms(text: String) {
        #expect(CookieDate.parse(Substring(text)) == Self.expected)
    }

    @Test("Two-digit years: 70-99 are 19xx, 00-69 are 20xx")
    func twoDigitYears() {
        #expect(CookieDate.parse("Thu, 01 Jan 70 00:00:00 GMT") == Date(timeIntervalSince1970: 0))
        #expect(CookieDate.parse("Sat, 01 Jan 00 00:00:00 GMT") == Date(timeIntervalSince1970: 946_684_800))
        #expect(CookieDate.parse("Mon, 01 Jan 69 00:00:00 GMT") == Date(timeIntervalSince1970: 3_124_224_000))
    }

    @Test("Leap days exist only in leap years")
    func leapDays() {
        #expect(CookieDate.parse("29 Feb 2024 00:00:00") == Date(timeIntervalSince1970: 1_709_164_800))
        #expect(CookieDate.parse("29 Feb 2023 00:00:00") == nil)
        #expect(CookieDate.parse("29 Feb 2000 00:00:00") != nil)
        #expect(CookieDate.parse("29 Feb 2100 00:00:00") == nil)
    }

    @Test(
        "Missing or out-of-range parts give no date",
        arguments: [
            "", "tomorrow", "Sun, 06 Nov 1994", "06 Nov 1994 25:00:00", "06 Nov 1994 08:60:00", "32 Nov 1994 08:49:37",
            "06 Foo 1994 08:49:37", "06 Nov 1600 08:49:37", "31 Apr 2020 00:00:00", "06 Nov 1994 08:49",
        ])
    func invalid(text: String) {
        #expect(CookieDate.parse(Substring(text)) == nil)
    }
}
