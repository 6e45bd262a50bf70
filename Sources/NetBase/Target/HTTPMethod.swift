import Foundation

/// An HTTP request method. Use the predefined constants or any custom token.
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The method token as sent on the wire, for example `"GET"`.
    public let rawValue: String

    /// Creates a method from its token; custom tokens (`"PURGE"`) are allowed.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Creates a method from a string literal.
    public init(stringLiteral value: String) { self.rawValue = value }

    public static let get: HTTPMethod = "GET"
    public static let post: HTTPMethod = "POST"
    public static let put: HTTPMethod = "PUT"
    public static let patch: HTTPMethod = "PATCH"
    public static let delete: HTTPMethod = "DELETE"
    public static let head: HTTPMethod = "HEAD"
    public static let options: HTTPMethod = "OPTIONS"

    /// Whether repeating the request has the same effect as sending it once (RFC 9110 §9.2.2).
    public var isIdempotent: Bool {
        [HTTPMethod.get, .head, .put, .delete, .options, "TRACE"].contains(self)
    }

    public var description: String { rawValue }
}
