import Foundation
import NetCore

/// The `Cache-Control` directives (RFC 9111 §5.2, RFC 5861) that ``CachePolicy/http`` honours,
/// read from a request or a response.
///
/// Directive names are case-insensitive; values may be tokens or quoted strings. A `delta-seconds`
/// value that is not a non-negative integer makes the directive ignored (except `max-stale`, whose
/// value is optional); values past 2³¹ are read as 2³¹ (RFC 9111 §1.2.2). Two different `max-age`
/// values make the response stale (RFC 9111 §4.2.1 allows that or the first one), and so does a
/// `max-age` written against the directive grammar (`max-age =60`, `max-age= 60`: no whitespace
/// around `=`), which §4.2.1 encourages caches to take as invalid freshness information.
struct HTTPCacheDirectives: Equatable {
    var noStore = false
    /// `no-cache`, with or without field names (the qualified form is treated as unqualified).
    var noCache = false
    /// `private`, with or without field names.
    var isPrivate = false
    var isPublic = false
    var mustRevalidate = false
    var onlyIfCached = false
    /// Seconds; `max-age`.
    var maxAge: Int?
    /// Seconds of staleness the request accepts; `Int.max` for `max-stale` without a value.
    var maxStale: Int?
    var minFresh: Int?
    var staleWhileRevalidate: Int?
    var staleIfError: Int?

    /// The largest `delta-seconds` value (RFC 9111 §1.2.2).
    static let deltaLimit = 2_147_483_648

    init(_ headers: HTTPHeaders) {
        self.init(value: headers["Cache-Control"])
    }

    init(value: String?) {
        guard let value else { return }
        var seenMaxAge = false
        for (name, argument, isMalformed) in Self.directives(in: value) {
            if isMalformed {
                if name == "max-age" { maxAge = 0 }
                seenMaxAge = seenMaxAge || name == "max-age"
                continue
            }
            switch name {
            case "no-store": noStore = true
            case "no-cache": noCache = true
            case "private": isPrivate = true
            case "public": isPublic = true
            case "must-revalidate": mustRevalidate = true
            case "only-if-cached": onlyIfCached = true
            case "max-age":
                guard let seconds = Self.deltaSeconds(argument) else { continue }
                if seenMaxAge, maxAge != seconds { maxAge = 0 } else if !seenMaxAge { maxAge = seconds }
                seenMaxAge = true
            case "max-stale":
                if argument == nil { maxStale = .max } else if let seconds = Self.deltaSeconds(argument) { maxStale = seconds }
            case "min-fresh": minFresh = Self.deltaSeconds(argument) ?? minFresh
            case "stale-while-revalidate": staleWhileRevalidate = Self.deltaSeconds(argument) ?? staleWhileRevalidate
            case "stale-if-error": staleIfError = Self.deltaSeconds(argument) ?? staleIfError
            default: continue
            }
        }
    }

    /// Whether the response sets its own freshness lifetime (`max-age`; `s-maxage` is for shared caches).
    var hasMaxAge: Bool { maxAge != nil }

    /// The directives in `value` as lowercased names and unquoted arguments; commas inside quoted
    /// strings do not split. `isMalformed` marks whitespace around `=`, which the grammar
    /// (`token [ "=" ( token / quoted-string ) ]`) does not allow.
    static func directives(in value: String) -> [(name: String, argument: String?, isMalformed: Bool)] {
        var result: [(String, String?, Bool)] = []
        var current = ""
        var quoted = false
        var escaped = false
        func finish() {
            let part = current.trimmingCharacters(in: .whitespaces)
            current = ""
            guard !part.isEmpty else { return }
            guard let equals = part.firstIndex(of: "=") else {
                result.append((part.lowercased(), nil, false))
                return
            }
            let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
            let after = part.index(after: equals)
            let isMalformed = part[..<equals].last.map(isSpace) == true || (after < part.endIndex && isSpace(part[after]))
            let name = part[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
            var argument = part[part.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            if argument.count >= 2, argument.hasPrefix("\""), argument.hasSuffix("\"") {
                argument = String(argument.dropFirst().dropLast()).replacingOccurrences(of: "\\", with: "")
            }
            result.append((name, argument, isMalformed))
        }
        for character in value {
            if escaped {
                escaped = false
            } else if quoted, character == "\\" {
                escaped = true
            } else if character == "\"" {
                quoted.toggle()
            } else if character == ",", !quoted {
                finish()
                continue
            }
            current.append(character)
        }
        finish()
        return result
    }

    /// A `delta-seconds` value: digits only, capped at ``deltaLimit``; `nil` when invalid.
    static func deltaSeconds(_ text: String?) -> Int? {
        guard let text, !text.isEmpty, text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
        guard text.utf8.count <= 10, let value = Int(text) else { return deltaLimit }
        return min(value, deltaLimit)
    }
}
