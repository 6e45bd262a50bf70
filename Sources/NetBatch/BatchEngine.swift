import Foundation
import NetCore

/// The machinery behind ``BatchManager``: a task group with a sliding window of at most
/// `maxConcurrent` children (a new child starts when one finishes), outcomes written by index
/// into a preallocated array by the parent task alone, so items need no lock and no actor hop.
final class BatchEngine<Target: TargetType>: Sendable {
    let count: Int
    let configuration: BatchConfiguration
    let decoder: JSONDecoder
    let onEvent: (@Sendable (BatchEvent) -> Void)?
    let target: @Sendable (Int) -> Target?
    let perform: @Sendable (Int) async -> Result<Response, NetworkError>

    init(
        count: Int, configuration: BatchConfiguration, decoder: JSONDecoder, onEvent: (@Sendable (BatchEvent) -> Void)?,
        target: @escaping @Sendable (Int) -> Target?, perform: @escaping @Sendable (Int) async -> Result<Response, NetworkError>
    ) {
        self.count = count
        self.configuration = configuration
        self.decoder = decoder
        self.onEvent = onEvent
        self.target = target
        self.perform = perform
    }

    /// What one child task reports.
    struct Outcome: Sendable {
        var index: Int
        var result: Result<Response, NetworkError>
        /// The number of the last attempt made (0 if none).
        var attempts: Int
    }

    /// Per-item state the parent keeps. Items that never start stay cancelled with 0 attempts.
    struct Slot {
        var result: Result<Response, NetworkError> = .failure(.cancelled)
        var attempts = 0
    }

    func run() async -> BatchResult<Target> {
        var slots = [Slot](repeating: Slot(), count: count)
        var pending = Array(0..<count)
        var rounds = 0
        while !pending.isEmpty {
            rounds += 1
            onEvent?(.roundStarted(round: rounds, itemCount: pending.count))
            let stoppedEarly = await runRound(byPriority(pending), slots: &slots)
            pending = stoppedEarly ? [] : await nextRound(after: rounds, slots: slots)
        }
        let items = slots.indices.map { index in
            let slot = slots[index]
            let cancelled = if case .failure(let error) = slot.result { error.isCancellation } else { false }
            return BatchItemResult(
                index: index, target: target(index), result: slot.result,
                attempts: slot.attempts, wasCancelled: cancelled)
        }
        let result = BatchResult(items: items, rounds: max(rounds, 1), decoder: decoder)
        onEvent?(.finished(result.summary))
        return result
    }

    /// `indexes` with higher ``RequestPriority`` first, in input order within a priority
    /// (operations count as normal).
    private func byPriority(_ indexes: [Int]) -> [Int] {
        let priorities = indexes.map { target($0)?.priority ?? .normal }
        guard priorities.contains(where: { $0 != .normal }) else { return indexes }
        return indexes.indices.sorted { a, b in
            priorities[a] != priorities[b] ? priorities[a] > priorities[b] : a < b
        }.map { indexes[$0] }
    }

    /// Runs `indexes` with the sliding window. Returns whether it stopped early (fail-fast or
    /// cancellation), in which case no further round may run.
    private func runRound(_ indexes: [Int], slots: inout [Slot]) async -> Bool {
        let failFast = configuration.failFast
        return await withTaskGroup(of: Outcome.self, returning: Bool.self) { group in
            var cursor = 0
            var stopped = false
            let initial = min(configuration.maxConcurrent, indexes.count)
            while cursor < initial {
                let index = indexes[cursor]
                let first = slots[index].attempts + 1
                guard group.addTaskUnlessCancelled(operation: { await self.runItem(index, firstAttempt: first) }) else {
                    stopped = true
                    break
                }
                cursor += 1
            }
            while let outcome = await group.next() {
                slots[outcome.index] = Slot(result: outcome.result, attempts: outcome.attempts)
                if failFast, !stopped, case .failure(let error) = outcome.result, !error.isCancellation {
                    stopped = true
                    group.cancelAll()
                }
                guard !stopped, cursor < indexes.count else { continue }
                let index = indexes[cursor]
                let first = slots[index].attempts + 1
                if group.addTaskUnlessCancelled(operation: { await self.runItem(index, firstAttempt: first) }) {
                    cursor += 1
                } else {
                    stopped = true
                }
            }
            return stopped || Task.isCancelled
        }
    }

    /// The indexes to run again after round `round`, for ``RetryTiming/afterBatch(shouldRetry:)``.
    private func nextRound(after round: Int, slots: [Slot]) async -> [Int] {
        guard case .afterBatch(let shouldRetry) = configuration.retryTiming.kind,
            round <= configuration.maxRetries
        else { return [] }
        var failures: [BatchFailure] = []
        for (index, slot) in slots.enumerated() {
            guard case .failure(let error) = slot.result, !error.isCancellation,
                slot.attempts == round, configuration.isRetryable(error)
            else { continue }
            failures.append(BatchFailure(index: index, error: error, attempts: slot.attempts))
        }
        guard !failures.isEmpty, !Task.isCancelled, await shouldRetry(failures), !Task.isCancelled else { return [] }
        return failures.map(\.index)
    }

    /// One item in its slot: sends it, and retries it in place for the inline timings.
    private func runItem(_ index: Int, firstAttempt: Int) async -> Outcome {
        var attempt = firstAttempt
        while true {
            onEvent?(.itemStarted(index: index, attempt: attempt))
            let result = await perform(index)
            onEvent?(.itemFinished(index: index, attempt: attempt, result: result))
            guard case .failure(let error) = result, !error.isCancellation, attempt <= configuration.maxRetries,
                configuration.isRetryable(error),
                let delay = configuration.retryTiming.inlineDelay(beforeRetry: attempt)
            else {
                return Outcome(index: index, result: result, attempts: attempt)
            }
            if Task.isCancelled {
                return Outcome(index: index, result: .failure(.cancelled), attempts: attempt)
            }
            onEvent?(.itemWillRetry(index: index, nextAttempt: attempt + 1, delay: delay))
            if delay > .zero {
                do {
                    try await configuration.sleep(delay)
                } catch {
                    return Outcome(index: index, result: .failure(.cancelled), attempts: attempt)
                }
            }
            if Task.isCancelled {
                return Outcome(index: index, result: .failure(.cancelled), attempts: attempt)
            }
            attempt += 1
        }
    }
}
