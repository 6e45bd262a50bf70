import Foundation

@testable import NetBase
@testable import NetCore

/// A clock the cookie tests move by hand.
final class CookieTestClock: Sendable {
    private let date = Locked(Date(timeIntervalSince1970: 1_700_000_000))

    var now: Date { date.withLock { $0 } }

    func advance(by seconds: TimeInterval) {
        date.withLock { $0 = $0.addingTimeInterval(seconds) }
    }
}

/// A jar on `clock`, with small limits when a test asks for them.
func makeJar(clock: CookieTestClock = CookieTestClock(), limits: CookieLimits = CookieLimits(), file: URL? = nil) -> CookieJar {
    CookieJar(fileURL: file, limits: limits, now: { clock.now })
}

/// A URL from a literal.
func cookieURL(_ text: String) -> URL { URL(string: text)! }

extension CookieJar {
    /// Stores `lines` (each one `Set-Cookie` line) as received from `from`.
    func set(_ lines: String..., from: String) {
        for line in lines { storeCookies(fromSetCookie: line, receivedFrom: cookieURL(from)) }
    }

    /// The `Cookie` header a request to `to` would get, or `nil`.
    func header(_ to: String) -> String? { cookieHeader(for: cookieURL(to)) }

    /// `name=value` of the cookies for `to`, in sending order.
    func pairs(_ to: String) -> [String] { cookies(for: cookieURL(to)).map { "\($0.name)=\($0.value)" } }
}
