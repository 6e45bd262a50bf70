import Foundation

/// One proxy server: its protocol, address and optional credentials.
///
/// ```swift
/// let squid = try ProxyServer(url: "http://me:secret@proxy.corp:3128")
/// let tor = try ProxyServer(url: "socks5h://127.0.0.1:9050")
/// ```
public struct ProxyServer: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// How a client talks to a proxy.
    package enum Kind: String, Sendable, Hashable {
        /// An HTTP proxy: `http` URLs are forwarded, `https` URLs tunnelled with `CONNECT`.
        case http
        /// A SOCKS5 proxy. Host names are resolved by the proxy (curl's `socks5h`), so no DNS
        /// query leaves this machine.
        case socks5
    }

    /// The protocol.
    package var kind: Kind
    /// The proxy's host name or IP address (IPv6 without brackets).
    package var host: String
    /// The proxy's port.
    package var port: Int
    /// The user name for proxy authentication (HTTP Basic, or SOCKS5 user/password), or `nil`.
    package var username: String?
    /// The password for proxy authentication, or `nil`. Never printed. Sent only together with
    /// a ``username``.
    package var password: String?

    /// Creates a proxy server description.
    package init(kind: Kind, host: String, port: Int, username: String? = nil, password: String? = nil) {
        self.kind = kind
        self.host = host
        self.port = port
        self.username = username
        self.password = password
    }

    /// An HTTP proxy (`CONNECT` for `https` URLs).
    package static func http(host: String, port: Int, username: String? = nil, password: String? = nil) -> ProxyServer {
        ProxyServer(kind: .http, host: host, port: port, username: username, password: password)
    }

    /// A SOCKS5 proxy; host names are resolved by the proxy.
    package static func socks5(host: String, port: Int, username: String? = nil, password: String? = nil) -> ProxyServer {
        ProxyServer(kind: .socks5, host: host, port: port, username: username, password: password)
    }

    /// Parses a proxy URL: `http://[user:password@]host[:port]` (port 80 by default), or
    /// `socks5://` / `socks5h://` (port 1080 by default; both resolve host names at the proxy).
    /// Without a scheme, `http://` is assumed. Percent-escapes in the credentials are decoded.
    /// - Throws: ``NetworkError/proxyFailed(proxy:reason:underlying:)`` for another scheme (HTTPS proxies
    ///   are not supported), a missing host or a bad port. The message never repeats the password.
    public init(url string: String) throws(NetworkError) {
        let text = string.trimmingCharacters(in: .whitespaces)
        let withScheme = text.contains("://") ? text : "http://" + text
        guard let components = URLComponents(string: withScheme), let host = components.host, !host.isEmpty else {
            throw .proxyFailed(proxy: "(unparsable)", reason: "the proxy URL has no host; expected http://host:port or socks5h://host:port")
        }
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        let scheme = components.scheme?.lowercased() ?? "http"
        let kind: Kind
        switch scheme {
        case "http": kind = .http
        case "socks5", "socks5h": kind = .socks5
        default:
            throw .proxyFailed(
                proxy: bare, reason: "the proxy scheme \"\(scheme)\" is not supported; use http:// (CONNECT for https) or socks5h://")
        }
        // "http://me:123/45@proxy" parses as host "me", port 123: a password with "/" in it
        // would be read as an address. A proxy URL has no path, so one means a mistake.
        guard components.percentEncodedPath.isEmpty || components.percentEncodedPath == "/",
            components.percentEncodedQuery == nil, components.percentEncodedFragment == nil
        else {
            throw .proxyFailed(
                proxy: "(unparsable)",
                reason:
                    "the proxy URL has a path, query or fragment; a proxy URL is scheme://[user:password@]host[:port] (percent-encode \"/\", \"?\", \"#\" and \"@\" in the user name and password)"
            )
        }
        let port = components.port ?? (kind == .http ? 80 : 1080)
        guard (1...65535).contains(port) else {
            throw .proxyFailed(proxy: bare, reason: "the proxy port \(port) is not between 1 and 65535")
        }
        self.init(
            kind: kind, host: bare, port: port,
            username: components.percentEncodedUser.map { $0.removingPercentEncoding ?? $0 },
            password: components.percentEncodedPassword.map { $0.removingPercentEncoding ?? $0 })
    }

    /// `http://proxy.corp:3128` or `socks5h://[::1]:1080`: the proxy without credentials, for
    /// messages and libcurl.
    package var address: String {
        let bracketed = host.contains(":") ? "[\(host)]" : host
        return "\(kind == .http ? "http" : "socks5h")://\(bracketed):\(port)"
    }

    /// Whether a user name or password is set.
    package var hasCredentials: Bool { username != nil || password != nil }

    /// ``address``, and `(credentials: <redacted>)` when credentials are set.
    public var description: String { hasCredentials ? "\(address) (credentials: <redacted>)" : address }

    /// The same as ``description``: no password.
    public var debugDescription: String { description }

    /// A mirror without credentials, so that `dump` and reflection cannot print them.
    public var customMirror: Mirror {
        Mirror(self, children: ["address": address, "credentials": hasCredentials ? "<redacted>" : "none"], displayStyle: .struct)
    }
}
