import Foundation

/// Which proxy each request goes through: one for `http` URLs, one for `https` URLs, and hosts
/// that bypass both.
///
/// ```swift
/// let corporate = ProxyConfiguration(.http(host: "proxy.corp", port: 3128, username: "me", password: secret),
///                                    bypass: ["localhost", "127.0.0.1", ".internal.corp"])
/// let transport = CurlTransport(configuration: .init(proxy: corporate))
/// let fromShell = CurlTransport(configuration: .init(proxy: try .fromEnvironment()))
/// ```
///
/// Environment variables (`HTTP_PROXY`, `HTTPS_PROXY`, `NO_PROXY`) are never used unless you ask
/// for them with ``fromEnvironment(_:)``. An `https` URL travels through an HTTP proxy in a
/// `CONNECT` tunnel, so TLS (pins, trusted certificates, client certificates) is still checked
/// against the origin server, never the proxy. Credentials stay in this value: ``description``,
/// errors and logs show the proxy's address only.
///
/// A single request can replace the transport's choice with ``Request/proxy`` (for example in a
/// plugin's ``Plugin/prepare(_:)``, per target); ``direct`` there sends it without a proxy.
public struct ProxyConfiguration: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The proxy for `http` URLs, or `nil` to connect directly.
    public var httpProxy: ProxyServer?
    /// The proxy for `https` URLs (tunnelled with `CONNECT` through an HTTP proxy), or `nil` to
    /// connect directly.
    public var httpsProxy: ProxyServer?
    /// Hosts reached without a proxy, `NO_PROXY` style: `example.com` (or `.example.com`) matches
    /// the domain and its subdomains, an IP address matches itself, `10.0.0.0/8` or `fd00::/8`
    /// matches a range of addresses, and `*` matches every host. Ports are ignored.
    public var bypass: [String]

    /// Creates a configuration with a proxy per URL scheme.
    /// - Parameters:
    ///   - http: The proxy for `http` URLs, or `nil` for none.
    ///   - https: The proxy for `https` URLs, or `nil` for none.
    ///   - bypass: Hosts that never use a proxy (see ``bypass``).
    public init(http: ProxyServer?, https: ProxyServer?, bypass: [String] = []) {
        httpProxy = http
        httpsProxy = https
        self.bypass = bypass
    }

    /// Creates a configuration that sends `http` and `https` URLs through the same proxy.
    /// - Parameters:
    ///   - server: The proxy for every request.
    ///   - bypass: Hosts that never use a proxy (see ``bypass``).
    public init(_ server: ProxyServer, bypass: [String] = []) {
        self.init(http: server, https: server, bypass: bypass)
    }

    /// No proxy for any request. As ``Request/proxy`` it overrides a transport's proxy.
    public static var direct: ProxyConfiguration { ProxyConfiguration(http: nil, https: nil) }

    /// The proxies the standard environment variables name: `http_proxy` / `HTTP_PROXY` for
    /// `http` URLs, `https_proxy` / `HTTPS_PROXY` for `https` URLs, `no_proxy` / `NO_PROXY` for
    /// the bypass list (lowercase first, as curl does). Empty or missing variables mean no proxy.
    ///
    /// The bypass list is read the way curl reads `NO_PROXY`, so NetKit and the `curl` command
    /// agree on which hosts skip the proxy: `*` bypasses every host only as the whole value;
    /// entries with a `*` elsewhere or with a port never match and are dropped; `.example.com` and
    /// `example.com` match the domain and its subdomains; `10.0.0.0/8` matches addresses in the
    /// range (`/0` means the exact address).
    ///
    /// Values are URLs such as `http://user:pass@proxy:3128` or `socks5h://proxy:1080` (a bare
    /// `proxy:3128` means `http://`). In a CGI program (`REQUEST_METHOD` is set) the uppercase
    /// `HTTP_PROXY` is ignored, because a client can set it there with a `Proxy:` header.
    /// - Parameter environment: The variables. Default: the process's environment.
    /// - Throws: ``NetworkError/proxyFailed(proxy:reason:underlying:)`` naming the variable whose value is
    ///   not a usable proxy URL (the value itself is not repeated: it may hold a password).
    public static func fromEnvironment(
        _ environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(NetworkError) -> ProxyConfiguration {
        func variable(_ names: String...) -> (name: String, value: String)? {
            for name in names {
                if let value = environment[name]?.trimmingCharacters(in: .whitespaces), !value.isEmpty { return (name, value) }
            }
            return nil
        }
        func server(_ found: (name: String, value: String)?) throws(NetworkError) -> ProxyServer? {
            guard let found else { return nil }
            do {
                return try ProxyServer(url: found.value)
            } catch {
                throw .proxyFailed(proxy: found.name, reason: "the variable \(found.name) does not hold a usable proxy URL (\(error.reason))")
            }
        }
        let isCGI = environment["REQUEST_METHOD"] != nil
        let http = isCGI ? variable("http_proxy") : variable("http_proxy", "HTTP_PROXY")
        let https = variable("https_proxy", "HTTPS_PROXY")
        let bypass = ProxyBypassList.entries(libcurlNoProxy: variable("no_proxy", "NO_PROXY")?.value ?? "")
        return ProxyConfiguration(http: try server(http), https: try server(https), bypass: bypass)
    }

    /// The proxy a request to `url` goes through, or `nil` to connect directly: the scheme's
    /// proxy unless the host is in ``bypass``.
    public func proxy(for url: URL) -> ProxyServer? {
        let server: ProxyServer?
        switch url.scheme?.lowercased() {
        case "http": server = httpProxy
        case "https": server = httpsProxy
        default: server = nil
        }
        guard let server, let host = url.host, !bypasses(host: host) else { return nil }
        return server
    }

    /// Whether `host` is in ``bypass``.
    public func bypasses(host: String) -> Bool {
        ProxyBypassList(bypass).matches(host)
    }

    /// `ProxyConfiguration(http: http://proxy:3128 (credentials: <redacted>), https: …, bypass: […])`.
    public var description: String {
        "ProxyConfiguration(http: \(httpProxy?.description ?? "direct"), https: \(httpsProxy?.description ?? "direct"), bypass: \(bypass))"
    }

    /// The same as ``description``: no password.
    public var debugDescription: String { description }

    /// A mirror without credentials, so that `dump` and reflection cannot print them.
    public var customMirror: Mirror {
        Mirror(self, children: ["http": httpProxy as Any, "https": httpsProxy as Any, "bypass": bypass], displayStyle: .struct)
    }
}

/// One proxy server: its protocol, address and optional credentials.
///
/// ```swift
/// let squid = ProxyServer.http(host: "proxy.corp", port: 3128, username: "me", password: secret)
/// let tor = ProxyServer.socks5(host: "127.0.0.1", port: 9050)
/// let parsed = try ProxyServer(url: "http://me:secret@proxy.corp:3128")
/// ```
public struct ProxyServer: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// How a client talks to a proxy.
    public enum Kind: String, Sendable, Hashable {
        /// An HTTP proxy: `http` URLs are forwarded, `https` URLs tunnelled with `CONNECT`.
        case http
        /// A SOCKS5 proxy. Host names are resolved by the proxy (curl's `socks5h`), so no DNS
        /// query leaves this machine.
        case socks5
    }

    /// The protocol.
    public var kind: Kind
    /// The proxy's host name or IP address (IPv6 without brackets).
    public var host: String
    /// The proxy's port.
    public var port: Int
    /// The user name for proxy authentication (HTTP Basic, or SOCKS5 user/password), or `nil`.
    public var username: String?
    /// The password for proxy authentication, or `nil`. Never printed. Sent only together with
    /// a ``username``.
    public var password: String?

    /// Creates a proxy server description.
    public init(kind: Kind, host: String, port: Int, username: String? = nil, password: String? = nil) {
        self.kind = kind
        self.host = host
        self.port = port
        self.username = username
        self.password = password
    }

    /// An HTTP proxy (`CONNECT` for `https` URLs).
    public static func http(host: String, port: Int, username: String? = nil, password: String? = nil) -> ProxyServer {
        ProxyServer(kind: .http, host: host, port: port, username: username, password: password)
    }

    /// A SOCKS5 proxy; host names are resolved by the proxy.
    public static func socks5(host: String, port: Int, username: String? = nil, password: String? = nil) -> ProxyServer {
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
    public var address: String {
        let bracketed = host.contains(":") ? "[\(host)]" : host
        return "\(kind == .http ? "http" : "socks5h")://\(bracketed):\(port)"
    }

    /// Whether a user name or password is set.
    public var hasCredentials: Bool { username != nil || password != nil }

    /// ``address``, and `(credentials: <redacted>)` when credentials are set.
    public var description: String { hasCredentials ? "\(address) (credentials: <redacted>)" : address }

    /// The same as ``description``: no password.
    public var debugDescription: String { description }

    /// A mirror without credentials, so that `dump` and reflection cannot print them.
    public var customMirror: Mirror {
        Mirror(self, children: ["address": address, "credentials": hasCredentials ? "<redacted>" : "none"], displayStyle: .struct)
    }
}

/// The ``RequestContext`` key behind ``Request/proxy``.
enum ProxyContextKey: RequestContextKey {
    /// No override: the transport's proxy configuration applies.
    static let defaultValue: ProxyConfiguration? = nil
}

extension Request {
    /// The proxy configuration for this request only, replacing the transport's (`nil`, the
    /// default: the transport's applies; ``ProxyConfiguration/direct``: no proxy). Set it in a
    /// plugin's ``Plugin/prepare(_:)`` to choose a proxy per target; it is kept across retries
    /// and redirect hops, and each hop's URL is matched against its ``ProxyConfiguration/bypass``.
    ///
    /// The provider sets it from ``TargetType/proxy`` or ``ProviderConfiguration/proxy`` when
    /// either is set. `CurlTransport` honours it; `URLSessionTransport` cannot send through a
    /// proxy and fails such a request with ``NetworkError/proxyFailed(proxy:reason:underlying:)``.
    public var proxy: ProxyConfiguration? {
        get { context[ProxyContextKey.self] }
        set { context[ProxyContextKey.self] = newValue }
    }
}

extension NetworkError {
    /// The reason of a `.proxyFailed`, or the description of another error.
    fileprivate var reason: String {
        if case .proxyFailed(_, let reason, _) = self { return reason }
        return description
    }
}

/// `NO_PROXY`-style matching of host names and addresses (see ``ProxyConfiguration/bypass``).
struct ProxyBypassList {
    /// The entries of a `NO_PROXY` value that libcurl (7.88, the version FoundationNetworking and
    /// CurlTransport load on Debian 12) would match, written for this list's own rules: `*` only
    /// as the whole value; tokens (split at commas and white space) with a `*` or a port, and
    /// bracketed tokens, never match there and are dropped; a `/0` prefix means the exact address.
    static func entries(libcurlNoProxy value: String) -> [String] {
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

    init(_ raw: [String]) {
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
    func matches(_ host: String) -> Bool {
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
