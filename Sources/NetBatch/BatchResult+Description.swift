import NetCore

extension BatchItemResult: CustomStringConvertible {
    /// `item 0: 200 GET https://host/path (95 bytes, 12 ms)`, `item 1 failed after 3 attempts: …`
    /// or `item 2 cancelled`.
    public var description: String {
        let tries = attempts == 1 ? "" : " after \(attempts) attempts"
        return switch result {
        case .success(let response): "item \(index): \(response)"
        case .failure where wasCancelled: "item \(index) cancelled\(attempts == 0 ? " before it started" : "")"
        case .failure(let error): "item \(index) failed\(tries): \(error)"
        }
    }
}

extension BatchResult: CustomStringConvertible {
    /// The counts, as ``BatchSummary`` says them: `3 items: 2 succeeded, 1 failed, 0 cancelled in 1 round(s)`.
    /// Each item describes itself (`result[i]`).
    public var description: String { summary.description }
}
