import NetToolbox
import Foundation
import NetCore

/// Answers the server's `401` challenges with a user name and password per target: HTTP Basic
/// and Digest (RFC 7616: MD5 and SHA-256, `qop=auth`), Moya's plugin of the same name.
///
/// After a `401` whose `WWW-Authenticate` offers Basic or Digest (Digest preferred, SHA-256
/// first), the request is tried again with the answer; later requests to the same origin
/// answer at once (Basic, or Digest with the remembered nonce and a growing nonce count). A
/// wrong password ends with the `401` (no loop); a stale Digest nonce is answered once more.
///
/// The closure is asked at most once per call, as Moya asks in `willSend`: its answer (`nil`
/// included) is kept in the call's ``/NetCore/Request/callStorage`` for every attempt, redirect
/// hop and retry of that call, so a closure that prompts the user or reads a keychain runs once.
/// The next call asks again.
///
/// Credentials only ever go to the target's own origin (scheme, host and port): the plugin adds
/// them to the request it prepares, and every transport drops `Authorization` on a redirect to
/// another origin. A header the request already has is left alone. Logs and HAR files redact
/// `Authorization` as always, and ``Credential``'s descriptions never show the password.
///
/// ```swift
/// let credentials = CredentialsPlugin { target in
///     (target as? Admin) != nil ? .init(user: "admin", password: secret) : nil
/// }
/// let provider = Provider<Admin>(plugins: [credentials])
/// ```
public struct CredentialsPlugin: Plugin {
    /// A user name and password.
    public struct Credential: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
        /// The user name.
        public var user: String
        /// The password.
        public var password: String

        /// Creates a credential.
        public init(user: String, password: String) {
            self.user = user
            self.password = password
        }

        /// `Credential(user: …, password: <redacted>)`.
        public var description: String { "Credential(user: \(user), password: <redacted>)" }
        /// The same as ``description``.
        public var debugDescription: String { description }
        /// The user name only, so `dump` never shows the password.
        public var customMirror: Mirror { Mirror(self, children: ["user": user, "password": "<redacted>"]) }
    }

    private let credentials: @Sendable (any TargetType) -> Credential?
    private let challenges = Locked([String: RememberedChallenge]())
    /// Names this plugin in a call's storage, so two instances on one provider keep apart answers.
    private let identity = Identity()

    /// Creates the plugin.
    /// - Parameter credentialsClosure: The credential for a target, or `nil` to leave its
    ///   challenges unanswered (the target of an ``/NetCore/AnyTarget`` is the wrapped one).
    public init(credentialsClosure: @escaping @Sendable (any TargetType) -> Credential?) {
        credentials = credentialsClosure
    }

    /// Creates the plugin with one credential for every target.
    public init(user: String, password: String) {
        let credential = Credential(user: user, password: password)
        credentials = { _ in credential }
    }

    /// Adds the answer to a challenge this origin already made.
    public func prepare(_ request: inout Request) async throws -> PrepareAction {
        guard request.headers["Authorization"] == nil, let credential = credential(for: request) else { return .proceed }
        let origin = Origin(request.url).description
        let answer = challenges.withLock { remembered -> (header: String, answered: String)? in
            guard var challenge = remembered[origin] else { return nil }
            defer { remembered[origin] = challenge }
            return challenge.answer(credential, method: request.method.rawValue.uppercased(), uri: Self.requestTarget(of: request.url))
        }
        if let answer {
            request.headers["Authorization"] = answer.header
            request.context[AnsweredChallengeKey.self] = answer.answered
        }
        return .proceed
    }

    /// A `401` the target's validation accepts.
    public func succeed(_ response: Response, for request: Request) async -> SucceedAction {
        remembersChallenge(in: response, for: request) ? .retry(after: .zero) : .proceed
    }

    /// A `401` the target's validation refuses.
    public func failure(_ error: NetworkError, for request: Request) async -> FailureAction {
        guard case .unacceptableStatus(let response) = error else { return .proceed }
        return remembersChallenge(in: response, for: request) ? .retry(after: .zero) : .proceed
    }

    /// Whether `response` is a challenge worth answering (then it is remembered for its origin).
    private func remembersChallenge(in response: Response, for request: Request) -> Bool {
        guard response.statusCode == 401, credential(for: request) != nil, let header = response.headers["WWW-Authenticate"] else { return false }
        let offered = AuthenticationChallenge.parse(header)
        guard let chosen = RememberedChallenge.preferred(among: offered) else { return false }
        // This attempt carried an answer and got a fresh challenge that is not merely about a
        // stale nonce: the credential is wrong, so stop here instead of asking again.
        if request.context[AnsweredChallengeKey.self] != nil, !chosen.isStale { return false }
        challenges.withLock { $0[Origin(request.url).description] = chosen }
        return true
    }

    /// The closure's answer for this call: asked on first need, then read from the call's storage.
    private func credential(for request: Request) -> Credential? {
        let key = ObjectIdentifier(identity)
        if let asked = request.callStorage[AskedCredentialsKey.self][key] { return asked }
        let answer = credentials(request.originalTarget)
        request.callStorage[AskedCredentialsKey.self][key] = .some(answer)
        return answer
    }

    /// The request target of `url` as Digest signs it: path and query.
    private static func requestTarget(of url: URL) -> String {
        let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        let path = components?.percentEncodedPath.isEmpty == false ? components!.percentEncodedPath : "/"
        return components?.percentEncodedQuery.map { path + "?" + $0 } ?? path
    }
}

/// A reference whose identity names one ``CredentialsPlugin`` (the plugin itself is a value).
private final class Identity: Sendable {}

/// What each ``CredentialsPlugin`` of a call was told by its closure (`nil` answers included), by
/// the plugin's ``Identity``.
private enum AskedCredentialsKey: RequestContextKey {
    static let defaultValue: [ObjectIdentifier: CredentialsPlugin.Credential?] = [:]
}

/// Which challenge this attempt answered (its ``RememberedChallenge/identity``).
private enum AnsweredChallengeKey: RequestContextKey {
    static let defaultValue: String? = nil
}
