import NetBase
/// What a server agreed to for permessage-deflate (RFC 7692, section 7.1): read strictly from
/// its `Sec-WebSocket-Extensions` answer by ``negotiate(answer:offered:)``.
package struct WebSocketDeflateParameters: Sendable, Equatable {
    /// The extension's name, and what a client that offers it sends: permessage-deflate with
    /// `client_max_window_bits` (so the server may ask for a smaller window for our messages).
    package static let name = "permessage-deflate"
    /// The `Sec-WebSocket-Extensions` value of the offer.
    package static let offer = "permessage-deflate; client_max_window_bits"

    /// The server resets its compressor after each message (we reset our decompressor too).
    package var serverNoContextTakeover = false
    /// We must reset our compressor after each message.
    package var clientNoContextTakeover = false
    /// The largest window the server compresses with (8...15).
    package var serverMaxWindowBits = 15
    /// The largest window we may compress with (8...15).
    package var clientMaxWindowBits = 15

    package init(
        serverNoContextTakeover: Bool = false, clientNoContextTakeover: Bool = false, serverMaxWindowBits: Int = 15,
        clientMaxWindowBits: Int = 15
    ) {
        self.serverNoContextTakeover = serverNoContextTakeover
        self.clientNoContextTakeover = clientNoContextTakeover
        self.serverMaxWindowBits = serverMaxWindowBits
        self.clientMaxWindowBits = clientMaxWindowBits
    }

    /// The parameters a 101's `Sec-WebSocket-Extensions` value `answer` agrees to, or `nil`
    /// when it names no extension.
    /// - Parameter offered: Whether the request offered permessage-deflate.
    /// - Throws: ``NetworkError/invalidResponse(reason:underlying:)`` naming the problem: an
    ///   extension that was not offered (any other, or permessage-deflate when compression was
    ///   off), permessage-deflate twice, a parameter twice, an unknown parameter, a value on a
    ///   `*_no_context_takeover`, a window size outside 8...15 or missing.
    package static func negotiate(answer: String?, offered: Bool) throws(NetworkError) -> Self? {
        let elements = splitList(answer ?? "")
        guard !elements.isEmpty else { return nil }
        var result: Self?
        for element in elements {
            let parts = element.split(separator: ";", omittingEmptySubsequences: false).map(trimmed)
            let extensionName = parts[0]
            guard offered, extensionName.lowercased() == name else {
                throw refusal("the server chose the WebSocket extension '\(element)', which was not offered")
            }
            guard result == nil else { throw refusal("the server answered permessage-deflate more than once") }
            result = try parameters(parts.dropFirst())
        }
        return result
    }

    private static func parameters(_ parts: ArraySlice<String>) throws(NetworkError) -> Self {
        var parameters = Self()
        var seen: Set<String> = []
        for part in parts {
            let pair = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(trimmed)
            let key = pair[0].lowercased()
            let value = pair.count > 1 ? unquoted(pair[1]) : nil
            guard seen.insert(key).inserted else {
                throw refusal("the server's permessage-deflate answer has the parameter '\(key)' twice")
            }
            switch key {
            case "server_no_context_takeover", "client_no_context_takeover":
                guard value == nil else {
                    throw refusal("the server's permessage-deflate parameter '\(key)' takes no value, yet has '\(pair[1])'")
                }
                if key == "server_no_context_takeover" {
                    parameters.serverNoContextTakeover = true
                } else {
                    parameters.clientNoContextTakeover = true
                }
            case "server_max_window_bits", "client_max_window_bits":
                guard let value, let bits = windowBits(value) else {
                    let shown = value.map { "'\($0)'" } ?? "no value"
                    throw refusal("the server's permessage-deflate parameter '\(key)' has \(shown), not a window size of 8 to 15 bits")
                }
                if key == "server_max_window_bits" {
                    parameters.serverMaxWindowBits = bits
                } else {
                    parameters.clientMaxWindowBits = bits
                }
            default:
                throw refusal("the server's permessage-deflate answer has the unknown parameter '\(key)'")
            }
        }
        return parameters
    }

    /// 8...15 written as section 7.1.2 requires: decimal digits, no leading zero.
    private static func windowBits(_ text: String) -> Int? {
        guard !text.isEmpty, text.utf8.allSatisfy({ (48...57).contains($0) }), !text.hasPrefix("0"), text.utf8.count <= 2,
            let bits = Int(text), (8...15).contains(bits)
        else { return nil }
        return bits
    }

    /// The elements of a comma-separated header list (commas inside quotes stay).
    private static func splitList(_ text: String) -> [String] {
        var elements: [String] = []
        var current = ""
        var quoted = false
        for character in text {
            if character == "\"" { quoted.toggle() }
            if character == ",", !quoted {
                elements.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        elements.append(current)
        return elements.map(trimmed).filter { !$0.isEmpty }
    }

    /// A quoted-string's content (section 7.1: a value may be sent quoted).
    private static func unquoted(_ text: String) -> String {
        guard text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") else { return text }
        return String(text.dropFirst().dropLast())
    }

    private static func trimmed(_ text: some StringProtocol) -> String {
        String(text.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }

    private static func refusal(_ reason: String) -> NetworkError { .invalidResponse(reason: reason) }
}
