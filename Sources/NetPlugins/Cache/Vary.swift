import NetToolbox
import Foundation
import NetCore

/// One request header named by a stored response's `Vary`, with the value the request that
/// fetched the response had.
///
/// A later request matches the entry only when its value for every such header is the same
/// (an absent header matches only an absent one). Values of credential headers (`Authorization`,
/// `Cookie`, `Proxy-Authorization`, a ``CachePlugin``'s `credentialHeaders`) are kept as
/// `"sha256:"` and their digest, never in clear.
package struct VaryingHeader: Sendable, Hashable {
    /// The header name, lowercased.
    package var name: String
    /// The request's value (surrounding spaces removed), or `nil` when the request lacked the header.
    package var value: String?

    /// Creates a recorded header; `name` is lowercased.
    package init(name: String, value: String?) {
        self.name = name.lowercased()
        self.value = value
    }
}

/// Reads a response's `Vary`, records the request values it names and matches them later.
enum Vary {
    /// What a response's `Vary` asks for.
    enum Selection: Equatable {
        /// No `Vary`: every request matches.
        case none
        /// `Vary: *`: no later request can be known to match, so the response is never stored.
        case everything
        /// These request headers (lowercased, in order, without duplicates) must match.
        case headers([String])
    }

    /// The selection in `headers`' `Vary` field.
    static func selection(in headers: HTTPHeaders) -> Selection {
        guard let value = headers["Vary"] else { return .none }
        var names: [String] = []
        for part in value.split(separator: ",") {
            let name = part.trimmingCharacters(in: .whitespaces).lowercased()
            if name == "*" { return .everything }
            if !name.isEmpty, !names.contains(name) { names.append(name) }
        }
        return names.isEmpty ? .none : .headers(names)
    }

    /// The values `request` has for `names`.
    static func record(_ names: [String], from request: HTTPHeaders, credentials: CredentialHeaders) -> [VaryingHeader] {
        names.map { VaryingHeader(name: $0, value: value(of: $0, in: request, credentials: credentials)) }
    }

    /// Whether `request` selects `entry`: its `Vary` is absent, or every header it names was
    /// recorded and has the same value now. `Vary: *` and anything unrecorded never match.
    static func matches(_ entry: CacheEntry, request: HTTPHeaders, credentials: CredentialHeaders) -> Bool {
        switch selection(in: entry.headers) {
        case .none:
            return true
        case .everything:
            return false
        case .headers(let names):
            for name in names {
                guard let recorded = entry.varyingHeaders.first(where: { $0.name == name }),
                    recorded.value == value(of: name, in: request, credentials: credentials)
                else { return false }
            }
            return true
        }
    }

    /// The comparable form of `name`'s value in `request`: trimmed, or a digest for credentials.
    private static func value(of name: String, in request: HTTPHeaders, credentials: CredentialHeaders) -> String? {
        guard let raw = request[name] else { return nil }
        if credentials.isCredential(name) { return "sha256:" + SHA256.hex(Data(raw.utf8)) }
        return raw.trimmingCharacters(in: .whitespaces)
    }
}
