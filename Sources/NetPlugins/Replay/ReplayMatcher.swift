import Foundation
import NetCore

/// Decides whether a recorded exchange answers a live request (see ``ReplayTransport``).
///
/// ```swift
/// // Method and URL (query order ignored), plus equal bodies and the same Accept header:
/// let matcher = ReplayMatcher.methodURLAndBody.requiringHeaders(["Accept"])
/// // Anything else:
/// let byPath = ReplayMatcher { request, recorded in request.url.path == URL(string: recorded.url)?.path }
/// ```
public struct ReplayMatcher: Sendable {
    private let matches: @Sendable (Request, RecordedExchange) -> Bool

    /// Creates a matcher from a predicate on the live request and a recorded exchange (read from
    /// the HAR file as a ``CapturedExchange``: its URL, headers and bodies as recorded).
    public init(_ matches: @escaping @Sendable (Request, CapturedExchange) -> Bool) {
        self.matches = { request, recorded in matches(request, recorded.captured) }
    }

    /// Creates a matcher that reads the recording as the replay keeps it.
    package init(recorded matches: @escaping @Sendable (Request, RecordedExchange) -> Bool) {
        self.matches = matches
    }

    /// Whether `recorded` answers `request`.
    package func matches(_ request: Request, _ recorded: RecordedExchange) -> Bool {
        matches(request, recorded)
    }

    /// The default: the same method and URL. Scheme and host compare case-insensitively, default
    /// ports are filled in, the path compares percent-decoded, query items must have the same
    /// names and values in any order, and the fragment and userinfo are ignored. A recorded query
    /// value `<redacted>` (how NetKit records secret values) matches any value.
    public static let methodAndURL = ReplayMatcher(recorded: { request, recorded in
        request.method.rawValue.uppercased() == recorded.method.rawValue
            && ReplayURL(request.url).matches(recorded: recorded.matchURL)
    })

    /// ``methodAndURL`` and the same body: JSON compared by value (key order and spacing
    /// ignored), form bodies as unordered fields, other bodies byte for byte. A recorded
    /// `<redacted>` value matches any value, so bodies NetKit recorded with secrets hidden
    /// still match.
    public static let methodURLAndBody = methodAndURL.and(
        ReplayMatcher(recorded: { request, recorded in
            ReplayBody.matches(request, recorded: recorded.requestBody)
        }))

    /// This matcher, and both this and `other` must match.
    public func and(_ other: ReplayMatcher) -> ReplayMatcher {
        ReplayMatcher(recorded: { request, recorded in matches(request, recorded) && other.matches(request, recorded) })
    }

    /// This matcher, and the headers `names` (case-insensitive) must have the same values in the
    /// request and the recording; a header missing from both matches. A recorded `<redacted>`
    /// value matches any value the request has for that header.
    public func requiringHeaders(_ names: [String]) -> ReplayMatcher {
        and(
            ReplayMatcher(recorded: { request, recorded in
                names.allSatisfy { name in
                    let live = request.headers[name]
                    let stored = recorded.requestHeaders[name]
                    if stored == Redaction.placeholder { return live != nil }
                    return live == stored
                }
            }))
    }
}
