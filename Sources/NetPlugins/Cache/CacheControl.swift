import Foundation
import NetCore

/// The `Cache-Control` directives the cache honours.
struct CacheControl: Equatable {
    var noStore = false
    var noCache = false
    /// `private` (also its `private="…"` form): the response is for one user only.
    var isPrivate = false
    var maxAge: Duration?

    init(_ headers: HTTPHeaders) {
        self.init(value: headers["Cache-Control"])
    }

    init(value: String?) {
        guard let value else { return }
        for part in value.split(separator: ",") {
            let directive = part.trimmingCharacters(in: .whitespaces).lowercased()
            if directive == "no-store" {
                noStore = true
            } else if directive == "no-cache" {
                noCache = true
            } else if directive == "private" || directive.hasPrefix("private=") {
                isPrivate = true
            } else if directive.hasPrefix("max-age=") {
                let number = directive.dropFirst("max-age=".count).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
                if let seconds = Int64(number), seconds >= 0 { maxAge = .seconds(seconds) }
            }
        }
    }

    /// The freshness limit the response itself sets: 0 for `no-cache`, else `max-age`.
    var responseLimit: Duration? { noCache ? .zero : maxAge }
}
