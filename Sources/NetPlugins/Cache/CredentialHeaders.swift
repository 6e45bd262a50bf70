import NetToolbox
import Foundation
import NetCore

/// The request headers that say who is asking (`Authorization`, `Cookie`, `Proxy-Authorization`
/// and any names a ``CachePlugin`` is given), and the digest that separates one user's cache
/// entries from another's.
///
/// The digest is the SHA-256, in lowercase hexadecimal, of one line `name:value\n` per credential
/// header present in the request, names lowercased and sorted, values exactly as sent. It is `nil`
/// when the request carries none of them, so anonymous requests keep the keys they always had.
struct CredentialHeaders: Sendable {
    /// The names every cache treats as credentials.
    static let standard: Set<String> = ["Authorization", "Cookie", "Proxy-Authorization"]

    /// Lowercased, unique and sorted: the digest's line order.
    let names: [String]

    /// The standard names plus `extra` (any case).
    init(extra: some Sequence<String>) {
        names = Set(Self.standard.union(extra).map { $0.lowercased() }).sorted()
    }

    /// Exactly `names` (any case), without the standard ones: what ``CacheKey``'s public
    /// initializer digests.
    init(exactly names: some Sequence<String>) {
        self.names = Set(names.map { $0.lowercased() }).sorted()
    }

    /// Whether `name` (any case) is one of the credential headers.
    func isCredential(_ name: String) -> Bool {
        names.contains { HTTPHeaders.sameName($0, name) }
    }

    /// The digest of the credential headers in `headers`, or `nil` when there are none.
    func digest(of headers: HTTPHeaders) -> String? {
        var text = ""
        for name in names {
            guard let value = headers[name] else { continue }
            text += name
            text += ":"
            text += value
            text += "\n"
        }
        return text.isEmpty ? nil : SHA256.hex(Data(text.utf8))
    }
}
