import NetToolbox
import Foundation

extension SecretRedactor {
    /// The URL's text without userinfo and with the values of secret query items (and of secret
    /// `name=value` pairs in the fragment) replaced by ``encodedPlaceholder``.
    ///
    /// `https://ann:pw@api.example.com/a?user[password]=x&page=2` becomes
    /// `https://api.example.com/a?user[password]=%3Credacted%3E&page=2`. Cheap when the URL has no
    /// `@`, `?` or `#`: it runs for every logged line.
    package static func redact(url: URL, rules: RedactionRules = .default) -> String {
        redact(urlString: url.absoluteString, rules: rules)
    }

    /// ``redact(url:rules:)`` for a URL given as text (a `Location` header, a HAR URL).
    package static func redact(urlString text: String, rules: RedactionRules = .default) -> String {
        var text = removingUserinfo(in: text)
        guard let queryStart = text.utf8.firstIndex(where: { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }) else {
            return text
        }
        let head = text[..<queryStart]
        var rest = text[queryStart...]
        var output = String(head)
        var changed = false
        // At most two sections: `?query` then `#fragment` (a `?` inside the fragment is data).
        while let marker = rest.first {
            let body = rest.dropFirst()
            let end = marker == "?" ? (body.firstIndex(of: "#") ?? body.endIndex) : body.endIndex
            output.append(marker)
            output += redactPairs(body[..<end], rules: rules, changed: &changed)
            rest = body[end...]
        }
        if changed { text = output }
        return text
    }

    /// `text` with the userinfo (`user:password@`) of every `scheme://` URL in it removed.
    package static func removingUserinfo(in text: String) -> String {
        let bytes = text.utf8
        guard bytes.contains(UInt8(ascii: "@")) else { return text }
        let array = Array(bytes)
        var output: [UInt8] = []
        output.reserveCapacity(array.count)
        var index = 0
        var changed = false
        while index < array.count {
            output.append(array[index])
            guard index + 2 < array.count, array[index] == UInt8(ascii: ":"),
                array[index + 1] == UInt8(ascii: "/"), array[index + 2] == UInt8(ascii: "/")
            else {
                index += 1
                continue
            }
            output.append(contentsOf: [UInt8(ascii: "/"), UInt8(ascii: "/")])
            let start = index + 3
            var end = start
            var lastAt: Int?
            while end < array.count, !endsAuthority(array[end]) {
                if array[end] == UInt8(ascii: "@") { lastAt = end }
                end += 1
            }
            if let lastAt {
                changed = true
                index = lastAt + 1
            } else {
                index = start
            }
        }
        return changed ? String(decoding: output, as: UTF8.self) : text
    }

    /// `name=value&…` with secret values replaced; pairs without `=` are kept as they are.
    static func redactPairs(_ pairs: Substring, rules: RedactionRules, changed: inout Bool) -> String {
        guard pairs.contains("=") else { return String(pairs) }
        var localChange = false
        let items = pairs.split(separator: "&", omittingEmptySubsequences: false).map { item -> Substring in
            guard let equals = item.firstIndex(of: "=") else { return item }
            let name = item[..<equals]
            guard rules.redactsQueryItem(decodedName(name)) else { return item }
            localChange = true
            return name + "=" + encodedPlaceholder
        }
        guard localChange else { return String(pairs) }
        changed = true
        return items.joined(separator: "&")
    }

    /// A form or query name, percent-decoded with `+` as space (the text itself when malformed).
    static func decodedName(_ name: Substring) -> String {
        guard name.utf8.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") }) else { return String(name) }
        return PercentEncoding.decode(String(name), plusAsSpace: true) ?? String(name)
    }

    private static func endsAuthority(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#"), UInt8(ascii: " "), UInt8(ascii: "\t"),
            UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "<"),
            UInt8(ascii: ">"), UInt8(ascii: "`"), UInt8(ascii: "\\"):
            true
        default:
            false
        }
    }
}
