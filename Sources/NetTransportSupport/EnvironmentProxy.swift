import NetBase
import NetToolbox
import Foundation

/// The proxy variables libcurl reads from the environment by itself, for a transport that cannot
/// stop it from doing so (FoundationNetworking's URLSession on Linux).
///
/// libcurl's rule: for a URL with scheme `s`, the first set of `s_proxy`, `S_PROXY` (not for
/// `http`, where only the lowercase name counts), `all_proxy`, `ALL_PROXY`; then `no_proxy` /
/// `NO_PROXY` exempts hosts. A request such a variable would route is refused before it is sent:
/// NetKit chooses proxies in Swift, and a proxy the caller did not ask for is a route it did not
/// agree to.
package enum EnvironmentProxy {
    /// The name of the variable that would send `url` through a proxy, or `nil`.
    /// - Parameter value: Looks up one variable (default: the process's environment).
    package static func variable(for url: URL, value: (String) -> String? = processValue) -> String? {
        let scheme = url.scheme?.lowercased() ?? ""
        var names = ["\(scheme)_proxy"]
        if scheme != "http" { names.append("\(scheme.uppercased())_PROXY") }
        names += ["all_proxy", "ALL_PROXY"]
        func isSet(_ name: String) -> Bool {
            guard let text = value(name) else { return false }
            return !text.trimmingCharacters(in: .whitespaces).isEmpty
        }
        guard let name = names.first(where: isSet) else { return nil }
        // libcurl's reading of the list, not NetKit's: a host counts as exempt only when libcurl
        // itself would skip the proxy for it.
        let exempt = ProxyBypassList.entries(libcurlNoProxy: value("no_proxy") ?? value("NO_PROXY") ?? "")
        if let host = url.host, ProxyBypassList(exempt).matches(host) { return nil }
        return name
    }

    /// The value of the process's environment variable `name`, read now (not cached: a program
    /// may set or clear proxies while it runs).
    package static func processValue(_ name: String) -> String? {
        guard let raw = getenv(name) else { return nil }
        return String(cString: raw)
    }
}
