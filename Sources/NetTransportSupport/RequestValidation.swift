import NetBase
import Foundation

/// The checks every request passes after `prepare` and before `willSend`, whatever the transport:
/// nothing a caller or a plugin puts into a request may change the shape of the message on the
/// wire (a CR or LF in a header would let a second request ride along after a blank line).
///
/// - The URL is `http` or `https` and has a host, as Swift reads it (libcurl and URLSession
///   could read a host where Swift sees none, bypassing proxy and pin choices made in Swift).
/// - The method is an RFC 9110 token.
/// - Header names are tokens; header values hold no control characters except horizontal tab.
///
/// A violation names the method or the header, never a header's value (it may be a secret).
package enum RequestValidation {
    package static func check(_ request: Request) -> NetworkError? {
        if let problem = urlProblem(request.url) {
            return .invalidURL(target: targetDescription(request.target), reason: "\(problem); nothing was sent")
        }
        if !isToken(request.method.rawValue) {
            return invalid(
                request,
                "the method \"\(printable(request.method.rawValue))\" is not an HTTP token (RFC 9110 §9.1: letters, digits and !#$%&'*+-.^_`|~ only); nothing was sent"
            )
        }
        for field in request.headers {
            if !isToken(field.name) {
                return invalid(
                    request,
                    "the header name \"\(printable(field.name))\" is not an HTTP token (RFC 9110 §5.1: no spaces, colons or control characters); nothing was sent"
                )
            }
            if let problem = valueProblem(field.value) {
                return invalid(request, "the value of the header \"\(field.name)\" contains \(problem), which HTTP forbids (RFC 9110 §5.5); nothing was sent")
            }
        }
        return nil
    }

    /// Why `url` cannot be sent, or `nil`. Checked by the pipeline and again before every hop
    /// (``RedirectFollower``), so requests built by hand and handed to a transport are covered too.
    package static func urlProblem(_ url: URL) -> String? {
        let scheme = url.scheme?.lowercased() ?? ""
        guard scheme == "http" || scheme == "https" else {
            return scheme.isEmpty
                ? "the URL has no scheme; use an absolute http:// or https:// URL"
                : "the URL scheme \"\(printable(scheme))\" is not supported; only http and https are sent"
        }
        guard let host = url.host, !host.isEmpty else {
            return "the URL has no host (a \"\(scheme):///...\" URL); proxies and TLS pins are chosen by host, so it is refused"
        }
        return nil
    }

    /// Whether `text` is a non-empty RFC 9110 token.
    static func isToken(_ text: String) -> Bool {
        let bytes = text.utf8
        return !bytes.isEmpty && bytes.allSatisfy(isTokenByte)
    }

    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default:
            "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }

    /// What makes `value` unsendable, or `nil`: CR, LF, NUL and other controls (tab is allowed).
    private static func valueProblem(_ value: String) -> String? {
        for byte in value.utf8 {
            switch byte {
            case 0x0D: return "a carriage return (CR)"
            case 0x0A: return "a line feed (LF)"
            case 0x00: return "a NUL byte"
            case 0x09: continue
            case 0x01...0x1F, 0x7F: return "the control character 0x\(String(byte, radix: 16, uppercase: true))"
            default: continue
            }
        }
        return nil
    }

    /// `text` with control characters shown as escapes, so an error message stays on one line.
    private static func printable(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars.prefix(64) {
            result += scalar.value < 0x20 || scalar.value == 0x7F ? scalar.escaped(asASCII: true) : String(scalar)
        }
        return result
    }

    private static func invalid(_ request: Request, _ reason: String) -> NetworkError {
        .invalidRequest(target: targetDescription(request.target), reason: reason)
    }
}
