import NetToolbox
import Foundation
import NetCore

/// The `Authorization: Digest …` answer to a Digest challenge (RFC 7616), for `qop=auth` or no
/// qop, with MD5 or SHA-256 (and their `-sess` forms).
struct DigestResponse {
    var username: String
    var password: String
    var realm: String
    var nonce: String
    var opaque: String?
    var algorithm: String
    /// Whether the server offered `qop=auth` (then `nc` and `cnonce` are sent).
    var usesQualityOfProtection: Bool

    /// The answer to `challenge`, or `nil` when it asks for something this client does not
    /// speak (`qop=auth-int` only, an unknown algorithm, no nonce).
    init?(challenge: AuthenticationChallenge, username: String, password: String) {
        guard challenge.scheme == "digest", let nonce = challenge.parameters["nonce"] else { return nil }
        let algorithm = (challenge.parameters["algorithm"] ?? "MD5").uppercased()
        guard ["MD5", "MD5-SESS", "SHA-256", "SHA-256-SESS"].contains(algorithm) else { return nil }
        let qops = (challenge.parameters["qop"] ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        guard qops.isEmpty || qops.contains("auth") else { return nil }
        self.username = username
        self.password = password
        realm = challenge.parameters["realm"] ?? ""
        self.nonce = nonce
        opaque = challenge.parameters["opaque"]
        self.algorithm = algorithm
        usesQualityOfProtection = !qops.isEmpty
    }

    private func hash(_ text: String) -> String {
        algorithm.hasPrefix("SHA-256") ? SHA256.hexString(SHA256.hash(text)) : MD5.hex(Data(text.utf8))
    }

    /// The header value for `method` and `uri` (the request target: path and query), the
    /// `count`-th use of this nonce, with client nonce `clientNonce`.
    func headerValue(method: String, uri: String, count: Int, clientNonce: String) -> String {
        let nonceCount = String(format: "%08x", count)
        var secret = hash("\(username):\(realm):\(password)")
        if algorithm.hasSuffix("-SESS") { secret = hash("\(secret):\(nonce):\(clientNonce)") }
        let target = hash("\(method):\(uri)")
        let response =
            usesQualityOfProtection
            ? hash("\(secret):\(nonce):\(nonceCount):\(clientNonce):auth:\(target)")
            : hash("\(secret):\(nonce):\(target)")
        var fields = [
            "username=\(Self.quoted(username))", "realm=\(Self.quoted(realm))", "nonce=\(Self.quoted(nonce))",
            "uri=\(Self.quoted(uri))", "algorithm=\(algorithm)", "response=\(Self.quoted(response))",
        ]
        if usesQualityOfProtection { fields += ["qop=auth", "nc=\(nonceCount)", "cnonce=\(Self.quoted(clientNonce))"] }
        if let opaque { fields.append("opaque=\(Self.quoted(opaque))") }
        return "Digest " + fields.joined(separator: ", ")
    }

    private static func quoted(_ value: String) -> String {
        "\"" + value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}
