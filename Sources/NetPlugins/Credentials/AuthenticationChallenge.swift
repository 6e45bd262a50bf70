import NetToolbox
import Foundation
import NetCore

/// One challenge of a `WWW-Authenticate` header (RFC 9110 §11.6.1): a scheme and its
/// parameters, e.g. `Digest realm="api", nonce="abc", qop="auth", algorithm=SHA-256`.
struct AuthenticationChallenge: Sendable, Equatable {
    /// The scheme in lowercase (`basic`, `digest`).
    var scheme: String
    /// Parameter names in lowercase, values unquoted.
    var parameters: [String: String]

    /// The challenges of a `WWW-Authenticate` value (several may share one header, separated by
    /// commas; a new challenge starts at a token not followed by `=`).
    static func parse(_ header: String) -> [AuthenticationChallenge] {
        var challenges: [AuthenticationChallenge] = []
        var scanner = Scanner(Array(header.utf8))
        while let token = scanner.token() {
            if scanner.peek(UInt8(ascii: "=")), !challenges.isEmpty {
                // name=value of the current challenge
                scanner.advance()
                let value = scanner.quotedString() ?? scanner.token() ?? ""
                challenges[challenges.count - 1].parameters[token.lowercased()] = value
            } else {
                challenges.append(AuthenticationChallenge(scheme: token.lowercased(), parameters: [:]))
                // token68 (`Basic xyz=`) carries no parameters we use: skip it
                if let rest = scanner.token(), scanner.peek(UInt8(ascii: "=")) {
                    scanner.advance()
                    challenges[challenges.count - 1].parameters[rest.lowercased()] = scanner.quotedString() ?? scanner.token() ?? ""
                }
            }
            scanner.skip(while: { $0 == UInt8(ascii: ",") || OptionalWhitespace.contains($0) })
        }
        return challenges
    }

    /// A tiny scanner over header bytes.
    private struct Scanner {
        let bytes: [UInt8]
        var index = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        mutating func skip(while predicate: (UInt8) -> Bool) {
            while index < bytes.count, predicate(bytes[index]) { index += 1 }
        }

        func peek(_ byte: UInt8) -> Bool { index < bytes.count && bytes[index] == byte }

        mutating func advance() { index += 1 }

        /// An RFC 9110 token (letters, digits and `!#$%&'*+-.^_`|~`), after optional spaces.
        mutating func token() -> String? {
            skip(while: OptionalWhitespace.contains)
            let start = index
            skip(while: Self.isTokenByte)
            // token68 allows trailing "=" padding in Basic's credentials; it never matters here
            return index > start ? String(decoding: bytes[start..<index], as: UTF8.self) : nil
        }

        /// A quoted string with `\` escapes, or `nil` when none starts here.
        mutating func quotedString() -> String? {
            skip(while: OptionalWhitespace.contains)
            guard peek(UInt8(ascii: "\"")) else { return nil }
            advance()
            var value: [UInt8] = []
            while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                if bytes[index] == UInt8(ascii: "\\"), index + 1 < bytes.count { index += 1 }
                value.append(bytes[index])
                index += 1
            }
            advance()
            return String(decoding: value, as: UTF8.self)
        }

        static func isTokenByte(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
            default: Array("!#$%&'*+-.^_`|~/".utf8).contains(byte)
            }
        }
    }
}
