import NetCore

extension BatchEvent: CustomStringConvertible {
    /// One short line per event, such as `item 2 finished attempt 1: 200 GET https://host/path (95 bytes, 12 ms)`
    /// or `item 4 failed attempt 3: Could not connect to …`. Responses and errors describe
    /// themselves (URLs redacted, no header values or bodies beyond an error's redacted excerpt).
    public var description: String {
        switch self {
        case .roundStarted(let round, let itemCount):
            "round \(round) started with \(itemCount) item\(itemCount == 1 ? "" : "s")"
        case .itemStarted(let index, let attempt):
            "item \(index) started attempt \(attempt)"
        case .itemFinished(let index, let attempt, .success(let response)):
            "item \(index) finished attempt \(attempt): \(response)"
        case .itemFinished(let index, let attempt, .failure(let error)):
            "item \(index) failed attempt \(attempt): \(error)"
        case .itemWillRetry(let index, let nextAttempt, let delay):
            "item \(index) will start attempt \(nextAttempt) in \(delay)"
        case .finished(let summary):
            "batch finished: \(summary)"
        }
    }
}
