import NetRedaction
import Foundation
import NetCore

/// The error for a request that nothing recorded answers, naming the request and the recorded
/// exchange that comes closest, both redacted.
enum ReplayMiss {
    /// `no recorded response for GET https://… in <file>; closest recorded: GET https://…`.
    static func error(for request: Request, in source: String, among exchanges: [RecordedExchange]) -> NetworkError {
        var reason = "no recorded response for \(request.description) in \(source)"
        if let closest = closest(to: request, among: exchanges) {
            reason += "; closest recorded: \(closest.method.rawValue) \(SecretRedactor.redact(urlString: closest.url.absoluteString))"
        } else {
            reason += "; it records no exchanges"
        }
        return .transport(reason: reason)
    }

    /// The recorded exchange most like `request`: one with the same method and path wins, then
    /// the same path, then the same method; ties go to the smallest edit distance between the
    /// `METHOD URL` texts, then to the earliest entry.
    static func closest(to request: Request, among exchanges: [RecordedExchange]) -> RecordedExchange? {
        let live = ReplayURL(request.url)
        let method = request.method.rawValue.uppercased()
        let text = key(method, request.url)
        return exchanges.min { left, right in
            score(left, method: method, url: live, text: text) < score(right, method: method, url: live, text: text)
        }
    }

    private struct Score: Comparable {
        var rank: Int
        var distance: Int
        var index: Int

        static func < (lhs: Score, rhs: Score) -> Bool {
            (lhs.rank, lhs.distance, lhs.index) < (rhs.rank, rhs.distance, rhs.index)
        }
    }

    private static func score(_ exchange: RecordedExchange, method: String, url: ReplayURL, text: [UInt8]) -> Score {
        let samePath = exchange.matchURL.origin == url.origin && exchange.matchURL.path == url.path
        let sameMethod = exchange.method.rawValue == method
        let rank = samePath ? (sameMethod ? 0 : 1) : (sameMethod ? 2 : 3)
        let distance = editDistance(text, key(exchange.method.rawValue, exchange.url))
        return Score(rank: rank, distance: distance, index: exchange.index)
    }

    /// `METHOD url` without the fragment, cut to 512 bytes so that the distance stays cheap.
    private static func key(_ method: String, _ url: URL) -> [UInt8] {
        let text = url.absoluteString
        let withoutFragment = text.firstIndex(of: "#").map { text[..<$0] } ?? text[...]
        return Array((method + " " + withoutFragment).utf8.prefix(512))
    }

    /// Levenshtein distance over bytes, two rows at a time.
    static func editDistance(_ left: [UInt8], _ right: [UInt8]) -> Int {
        if left.isEmpty { return right.count }
        if right.isEmpty { return left.count }
        var previous = Array(0...right.count)
        var current = Array(repeating: 0, count: right.count + 1)
        for (row, byte) in left.enumerated() {
            current[0] = row + 1
            for column in 1...right.count {
                let substitution = previous[column - 1] + (byte == right[column - 1] ? 0 : 1)
                current[column] = min(substitution, previous[column] + 1, current[column - 1] + 1)
            }
            swap(&previous, &current)
        }
        return previous[right.count]
    }
}
