import NetToolbox
import Foundation
import NetCore

/// A challenge an origin made, with what its answers need (the Digest nonce count).
struct RememberedChallenge: Sendable {
    var challenge: AuthenticationChallenge
    /// How many times the nonce was used (Digest's `nc`).
    var uses = 0

    /// The challenge to answer among `offered`: Digest with SHA-256, Digest with MD5, then Basic.
    static func preferred(among offered: [AuthenticationChallenge]) -> RememberedChallenge? {
        func digest(_ algorithm: String) -> AuthenticationChallenge? {
            offered.first { $0.scheme == "digest" && ($0.parameters["algorithm"] ?? "MD5").uppercased().hasPrefix(algorithm) }
        }
        let chosen = digest("SHA-256") ?? digest("MD5") ?? offered.first { $0.scheme == "basic" }
        return chosen.map { RememberedChallenge(challenge: $0) }
    }

    /// Names this challenge, so that a refusal of its own answer can be recognised.
    var identity: String { challenge.scheme == "digest" ? "digest:" + (challenge.parameters["nonce"] ?? "") : "basic" }

    /// Whether the server said its nonce was merely stale (the password was right).
    var isStale: Bool { challenge.parameters["stale"]?.lowercased() == "true" }

    /// The `Authorization` value for `credential`, and the identity it answers; `nil` when the
    /// challenge asks for something this client does not speak.
    mutating func answer(_ credential: CredentialsPlugin.Credential, method: String, uri: String) -> (header: String, answered: String)? {
        if challenge.scheme == "basic" {
            return ("Basic " + Data("\(credential.user):\(credential.password)".utf8).base64EncodedString(), identity)
        }
        guard let digest = DigestResponse(challenge: challenge, username: credential.user, password: credential.password) else { return nil }
        uses += 1
        let clientNonce = SHA256.hexString((0..<8).map { _ in UInt8.random(in: 0...255) })
        return (digest.headerValue(method: method, uri: uri, count: uses, clientNonce: clientNonce), identity)
    }
}
