import NetBase
/// The pings a connection sent and waits for pongs to, each with a payload of its own (its
/// waiter's number), so a pong answers only the ping whose payload it echoes (RFC 6455, section
/// 5.5.3), never one sent after it, and an unsolicited pong (a heartbeat) answers none.
///
/// A peer may answer only the most recent of several pings, so a pong also answers the pings
/// sent before the one it matches.
package struct WebSocketPendingPings: Sendable {
    private var pending: [(payload: [UInt8], waiter: UInt64)] = []

    package init() {}

    /// How many pings wait for their pong.
    package var count: Int { pending.count }

    /// Records a ping for `waiter`; returns the payload to send with it.
    package mutating func add(waiter: UInt64) -> [UInt8] {
        let payload = (0..<8).map { UInt8(truncatingIfNeeded: waiter >> UInt64(56 - $0 * 8)) }
        pending.append((payload, waiter))
        return payload
    }

    /// The waiters a pong with `payload` answers (in the order their pings went out): the ping it
    /// echoes and those before it; none when it echoes no waiting ping.
    package mutating func answered(by payload: [UInt8]) -> [UInt64] {
        guard let index = pending.firstIndex(where: { $0.payload == payload }) else { return [] }
        defer { pending.removeFirst(index + 1) }
        return pending[...index].map(\.waiter)
    }

    /// Forgets the pings of the waiters `isGone` names (their callers stopped waiting), so pings
    /// cancelled on a peer that never answers do not pile up.
    package mutating func forget(where isGone: (UInt64) -> Bool) {
        pending.removeAll { isGone($0.waiter) }
    }

    /// Every waiter, forgotten (the connection ended).
    package mutating func removeAll() -> [UInt64] {
        defer { pending = [] }
        return pending.map(\.waiter)
    }
}
