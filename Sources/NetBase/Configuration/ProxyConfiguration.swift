import NetToolbox
import Foundation

/// Which proxy each request goes through: one for `http` URLs, one for `https` URLs, and hosts
/// that bypass both.
///
/// ```swift
/// let squid = try ProxyServer(url: "http://me:secret@proxy.corp:3128")
/// let corporate = ProxyConfiguration(http: squid, https: squid, bypass: ["localhost", "127.0.0.1", ".internal.corp"])
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
    package var httpProxy: ProxyServer?
    /// The proxy for `https` URLs (tunnelled with `CONNECT` through an HTTP proxy), or `nil` to
    /// connect directly.
    package var httpsProxy: ProxyServer?
    /// Hosts reached without a proxy, `NO_PROXY` style: `example.com` (or `.example.com`) matches
    /// the domain and its subdomains, an IP address matches itself, `10.0.0.0/8` or `fd00::/8`
    /// matches a range of addresses, and `*` matches every host. Ports are ignored.
    package var bypass: [String]

    /// Creates a configuration with a proxy per URL scheme.
    /// - Parameters:
    ///   - http: The proxy for `http` URLs, or `nil` for none.
    ///   - https: The proxy for `https` URLs, or `nil` for none.
    ///   - bypass: Hosts that never use a proxy (see `bypass`).
    public init(http: ProxyServer?, https: ProxyServer?, bypass: [String] = []) {
        httpProxy = http
        httpsProxy = https
        self.bypass = bypass
    }

    /// Creates a configuration that sends `http` and `https` URLs through the same proxy.
    /// - Parameters:
    ///   - server: The proxy for every request.
    ///   - bypass: Hosts that never use a proxy (see ``bypass``).
    package init(_ server: ProxyServer, bypass: [String] = []) {
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
    package func proxy(for url: URL) -> ProxyServer? {
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
    package func bypasses(host: String) -> Bool {
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

/// The ``RequestContext`` key behind ``Request/proxy``.
enum ProxyContextKey: RequestContextKey {
    /// No override: the transport's proxy configuration applies.
    static let defaultValue: ProxyConfiguration? = nil
}

extension Request {
    /// The proxy configuration for this request only, replacing the transport's (`nil`, the
    /// default: the transport's applies; ``ProxyConfiguration/direct``: no proxy). Set it in a
    /// plugin's ``Plugin/prepare(_:)`` to choose a proxy per target; it is kept across retries
    /// and redirect hops, and each hop's URL is matched against its `bypass`.
    ///
    /// The provider sets it from ``TargetOptions/proxy`` or ``ProviderConfiguration/proxy`` when
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
