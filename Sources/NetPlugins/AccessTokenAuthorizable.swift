import NetCore

/// A target that chooses, per endpoint, how ``AuthPlugin`` sends its token, or that it sends none.
///
/// ```swift
/// extension API: AccessTokenAuthorizable {
///     var authorizationType: AuthorizationType? {
///         switch self {
///         case .login: nil                    // no token
///         case .legacy: .custom("Token")      // Authorization: Token <token>
///         default: .bearer                    // Authorization: Bearer <token>
///         }
///     }
/// }
/// ```
///
/// A target that does not adopt the protocol gets the plugin's own ``AuthPlugin/scheme``. The
/// plugin sees through ``/NetCore/AnyTarget``: a wrapped target's choice counts.
public protocol AccessTokenAuthorizable {
    /// How the token is written for this target; `nil` sends no token.
    var authorizationType: AuthorizationType? { get }
}

/// The scheme word written before the token in the `Authorization` header.
public enum AuthorizationType: Sendable, Hashable {
    /// `Bearer <token>`.
    case bearer
    /// `Basic <token>`: the token is sent as it is, so it must already be the Base64 of
    /// `user:password`.
    case basic
    /// `<scheme> <token>` with any scheme word, such as `Token`; an empty word sends the bare token.
    case custom(String)

    /// The scheme word: `Bearer`, `Basic`, or the custom word.
    public var value: String {
        switch self {
        case .bearer: "Bearer"
        case .basic: "Basic"
        case .custom(let scheme): scheme
        }
    }
}
