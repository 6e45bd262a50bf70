import NetBase
import Foundation

/// The two spellings of a WebSocket URL: `ws`/`wss` (what a WebSocket API takes) and
/// `http`/`https` (what the handshake is: an HTTP request, and what TLS policies, cookies and
/// proxies know).
package enum WebSocketURLScheme {
    /// ws → http and wss → https; any other URL as it is.
    package static func http(_ url: URL) -> URL {
        replacingScheme(of: url, ["ws": "http", "wss": "https"])
    }

    /// http → ws and https → wss; any other URL as it is.
    package static func webSocket(_ url: URL) -> URL {
        replacingScheme(of: url, ["http": "ws", "https": "wss"])
    }

    private static func replacingScheme(of url: URL, _ schemes: [String: String]) -> URL {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false),
            let scheme = components.scheme.flatMap({ schemes[$0.lowercased()] })
        else { return url }
        components.scheme = scheme
        return components.url ?? url
    }
}
