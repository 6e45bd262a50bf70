import NetToolbox
import Foundation
import NetBase

/// A clock the cookie tests move by hand.
public final class CookieTestClock: Sendable {
    private let date = Locked(Date(timeIntervalSince1970: 1_700_000_000))

    /// A clock at 2023-11-14 22:13:20 UTC.
    public init() {}

    /// The time the jar sees.
    public var now: Date { date.withLock { $0 } }

    /// Moves the clock on by `seconds`.
    public func advance(by seconds: TimeInterval) {
        date.withLock { $0 = $0.addingTimeInterval(seconds) }
    }
}

/// A jar on `clock`, with small limits when a test asks for them.
package func makeJar(clock: CookieTestClock = CookieTestClock(), limits: CookieLimits = CookieLimits(), file: URL? = nil) -> CookieJar {
    CookieJar(fileURL: file, limits: limits, now: { clock.now })
}

/// A URL from a literal.
public func cookieURL(_ text: String) -> URL { URL(string: text)! }

extension CookieJar {
    /// Stores `lines` (each one `Set-Cookie` line) as received from `from`.
    public func set(_ lines: String..., from: String) {
        for line in lines { storeCookies(fromSetCookie: line, receivedFrom: cookieURL(from)) }
    }

    /// The `Cookie` header a request to `to` would get, or `nil`.
    public func header(_ to: String) -> String? { cookieHeader(for: cookieURL(to)) }

    /// `name=value` of the cookies for `to`, in sending order.
    public func pairs(_ to: String) -> [String] { cookies(for: cookieURL(to)).map { "\($0.name)=\($0.value)" } }
}
