import NetToolbox
import NetCore

/// The recorded exchanges and which of them have answered, shared by every copy of a
/// ``ReplayTransport`` and safe to use from concurrent requests.
final class ReplayLedger: Sendable {
    private struct State {
        var exchanges: [RecordedExchange]
        var used: [Bool]
    }

    private let state: Locked<State>

    init(_ exchanges: [RecordedExchange]) {
        state = Locked(State(exchanges: exchanges, used: Array(repeating: false, count: exchanges.count)))
    }

    /// Every exchange, in file order.
    var exchanges: [RecordedExchange] { state.withLock { $0.exchanges } }

    /// Exchanges that have not answered a request yet.
    var unused: [RecordedExchange] {
        state.withLock { state in state.exchanges.indices.filter { !state.used[$0] }.map { state.exchanges[$0] } }
    }

    /// The first unused exchange that `matcher` accepts, now marked used; when every matching one
    /// was used and `repeatingLast` is set, the last matching one again; otherwise `nil`.
    ///
    /// The matcher runs outside the lock (it is the caller's code); claiming happens under it, so
    /// two concurrent identical requests never take the same entry.
    func take(for request: Request, matcher: ReplayMatcher, repeatingLast: Bool) -> RecordedExchange? {
        // Positions in the ledger never change: it only grows at the end.
        let snapshot = exchanges
        let candidates = snapshot.indices.filter { matcher.matches(request, snapshot[$0]) }
        guard let last = candidates.last else { return nil }
        return state.withLock { state in
            if let free = candidates.first(where: { !state.used[$0] }) {
                state.used[free] = true
                return state.exchanges[free]
            }
            return repeatingLast ? state.exchanges[last] : nil
        }
    }

    /// Adds a newly recorded exchange, already used (it answered the request that made it).
    func appendUsed(_ exchange: RecordedExchange) {
        state.withLock { state in
            state.exchanges.append(exchange)
            state.used.append(true)
        }
    }
}
