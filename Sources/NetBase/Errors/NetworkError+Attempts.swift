extension NetworkError {
    /// " after N attempts" for an error about `response` when its request was not the first attempt.
    ///
    /// How many attempts a call made is data, never part of a `reason`: the request of a
    /// response-carrying error says it (`response.request.attempt`, which this note reads), and
    /// every attempt's request does for plugins and observers (``Request/attempt``). A final
    /// error without a response is the last attempt's error, unchanged.
    static func attemptsNote(_ response: Response) -> String {
        response.request.attempt > 1 ? " after \(response.request.attempt) attempts" : ""
    }
}
