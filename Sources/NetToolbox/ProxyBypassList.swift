import Foundation

/// `NO_PROXY`-style matching of host names and addresses (NetBase's `ProxyConfiguration.bypass`
/// and the environment proxy check).
package struct ProxyBypassList {
    /// The entries of a `NO_PROXY` value that libcurl (7.88, the version FoundationNetworking and
    /// CurlTransport load on Debian 12) would match, written for this list's own rules: `*` only
    /// as the whole value; tokens (split at commas and white space) with a `*` or a port, and
    /// bracketed tokens, never match there and are dropped; a `/0` prefix means the exact address.
    package static func entries(libcurlNoProxy value: String) -> [String] {
        let whole = value.trimmingCharacters(in: .whitespaces)
        if whole == "*" { return ["*"] }
        let separators = CharacterSet(charactersIn: ", \t")
        return whole.components(separatedBy: separators).compactMap { token in
            guard !token.isEmpty, !token.contains("*"), !token.contains("["), !token.contains("]") else { return nil }
            let colons = token.filter { $0 == ":" }.count
            if colons == 1 { return nil }  // host:port
            if token.hasSuffix("/0") { return String(token.dropLast(2)) }
            return token
        }
    }

    private let entries: [String]

    package init(_ raw: [String]) {
        entries = raw.compactMap { entry in
            var value = entry.trimmingCharacters(in: .whitespaces).lowercased()
            if value.hasPrefix("*.") { value.removeFirst(2) } else if value.hasPrefix(".") { value.removeFirst() }
            if value.hasPrefix("["), let end = value.firstIndex(of: "]") {
                let inside = value[value.index(after: value.startIndex)..<end]
                let rest = value[value.index(after: end)...]
                value = String(inside) + (rest.hasPrefix("/") ? String(rest) : "")  // "[::1]:8080" → "::1"
            } else if value.filter({ $0 == ":" }).count == 1, let colon = value.firstIndex(of: ":") {
                value = String(value[..<colon])  // host:port: ports are ignored
                if value == "*" { return nil }  // "*:8080" is not "every host"
            }
            if value.hasSuffix(".") { value.removeLast() }  // "example.com." is example.com
            return value.isEmpty ? nil : value
        }
    }

    /// Whether `host` (a name, an IPv4 address or an IPv6 address with or without brackets) matches.
    package func matches(_ host: String) -> Bool {
        var host = host.lowercased()
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if host.hasSuffix(".") { host.removeLast() }
        let address = Self.addressBytes(host)
        for entry in entries {
            if entry == "*" || entry == host { return true }
            if entry.contains("/") {
                if let address, Self.range(entry, contains: address) { return true }
            } else if address == nil, host.hasSuffix("." + entry) {
                return true
            } else if let address, let other = Self.addressBytes(entry), other == address {
                return true  // the same address spelled differently (IPv6)
            }
        }
        return false
    }

    /// Whether `cidr` (`10.0.0.0/8`, `fd00::/8`) contains `address`.
    private static func range(_ cidr: String, contains address: [UInt8]) -> Bool {
        let parts = cidr.split(separator: "/", maxSplits: 1)
        guard parts.count == 2, let network = addressBytes(String(parts[0])), network.count == address.count,
            let bits = Int(parts[1]), (0...network.count * 8).contains(bits)
        else { return false }
        for index in 0..<network.count {
            let remaining = bits - index * 8
            if remaining <= 0 { break }
            let mask: UInt8 = remaining >= 8 ? 0xFF : ~(0xFF >> UInt8(remaining))
            if network[index] & mask != address[index] & mask { return false }
        }
        return true
    }

    /// The 4 or 16 bytes of an IP address, or `nil` for a host name.
    static func addressBytes(_ text: String) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: 16)
        if text.contains(":") {
            return inet_pton(AF_INET6, text, &buffer) == 1 ? buffer : nil
        }
        return inet_pton(AF_INET, text, &buffer) == 1 ? Array(buffer.prefix(4)) : nil
    }
}
