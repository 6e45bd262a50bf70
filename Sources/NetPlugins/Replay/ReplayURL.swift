import NetToolbox
import Foundation
import NetCore

/// A URL reduced to what identifies a recorded request: scheme, host and port (default ports
/// filled in), the percent-decoded path, and the query as name/value pairs whose order does not
/// matter. Userinfo and the fragment are ignored; `ws` and `wss` count as `http` and `https`.
struct ReplayURL: Sendable, Equatable {
    var origin: String
    var path: String
    /// Decoded query pairs grouped by name; the order of values per name is sorted.
    var query: [String: [String]]

    init(_ url: URL) {
        let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        // A WebSocket's handshake is an http(s) request; browsers record it as ws(s).
        let scheme =
            switch (components?.scheme ?? "").lowercased() {
            case "ws": "http"
            case "wss": "https"
            case let other: other
            }
        let host = (components?.host ?? "").lowercased()
        let port = components?.port ?? defaultPort(forScheme: scheme)
        origin = "\(scheme)://\(host)" + (port.map { ":\($0)" } ?? "")
        let rawPath = components?.percentEncodedPath ?? url.path
        path = rawPath.isEmpty ? "/" : (PercentEncoding.decode(rawPath) ?? rawPath)
        var query: [String: [String]] = [:]
        for field in FormFields.decode(components?.percentEncodedQuery ?? "") {
            query[field.name, default: []].append(field.value)
        }
        self.query = query.mapValues { $0.sorted() }
    }

    /// Whether a live request's URL (`self`) matches a recorded one: same origin and path, and
    /// the same query pairs in any order. A recorded value `<redacted>` (as NetKit writes
    /// secret query values) stands for any value of that name.
    func matches(recorded: ReplayURL) -> Bool {
        guard origin == recorded.origin, path == recorded.path, query.count == recorded.query.count else { return false }
        for (name, values) in query {
            guard let recordedValues = recorded.query[name], recordedValues.count == values.count else { return false }
            var unmatched = values
            var wildcards = 0
            for value in recordedValues {
                if value == Redaction.placeholder {
                    wildcards += 1
                } else if let position = unmatched.firstIndex(of: value) {
                    unmatched.remove(at: position)
                } else {
                    return false
                }
            }
            guard unmatched.count == wildcards else { return false }
        }
        return true
    }
}
