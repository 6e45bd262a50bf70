/// The port a URL means when it names none: 80 for `http` and `ws`, 443 for `https` and `wss`.
///
/// - Parameter scheme: A lowercased URL scheme.
/// - Returns: The default port, or `nil` for a scheme without one here.
package func defaultPort(forScheme scheme: String) -> Int? {
    switch scheme {
    case "http", "ws": 80
    case "https", "wss": 443
    default: nil
    }
}
