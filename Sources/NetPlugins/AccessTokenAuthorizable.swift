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
/// A target type that adopts the protocol follows Moya's `AccessTokenPlugin` rule: the token goes
/// only to the endpoints whose ``authorizationType`` is not `nil`. A target type that does not
/// adopt it gets the plugin's own `scheme` on every request (one API, one token;
/// `appliesTo` narrows it). ``/NetCore/AnyTarget`` adopts it like Moya's `MultiTarget`: it
/// forwards the wrapped target's choice, and `nil` for a wrapped target that does not adopt it,
/// so a provider that mixes several APIs sends the token only where a target asks for it.
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

/// Forwards the wrapped target's ``AccessTokenAuthorizable/authorizationType``, as Moya's
/// `MultiTarget` does: `nil` (no token) when the wrapped target does not adopt the protocol.
extension AnyTarget: AccessTokenAuthorizable {
    /// The wrapped target's choice, or `nil` when it does not adopt ``AccessTokenAuthorizable``.
    public var authorizationType: AuthorizationType? {
        (base as? any AccessTokenAuthorizable)?.authorizationType
    }
}
