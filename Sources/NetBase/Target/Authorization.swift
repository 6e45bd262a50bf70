import Foundation

/// Credentials for the `Authorization` header.
///
/// ```swift
/// var headers: [String: String] { ["Authorization": Authorization.basic(user: "ada", password: secret).headerValue] }
/// ```
///
/// The header is redacted in logs, HAR files and error descriptions like any `Authorization`,
/// and this value's own description never shows the secret.
public enum Authorization: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible {
    /// HTTP Basic (RFC 7617): `Basic base64(user:password)`, UTF-8.
    case basic(user: String, password: String)
    /// A bearer token (RFC 6750): `Bearer <token>`.
    case bearer(String)

    /// The `Authorization` header value.
    public var headerValue: String {
        switch self {
        case .basic(let user, let password): "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
        case .bearer(let token): "Bearer " + token
        }
    }

    /// The scheme and, for Basic, the user; never the secret.
    public var description: String {
        switch self {
        case .basic(let user, _): "Basic (user \(user), password <redacted>)"
        case .bearer: "Bearer <redacted>"
        }
    }

    /// Same as ``description``.
    public var debugDescription: String { description }
}
