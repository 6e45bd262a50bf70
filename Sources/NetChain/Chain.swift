import NetCore

/// Dependent requests: each step gets the previous response and returns the next target.
///
/// A chain is a value: building it sends nothing, and it can be run again.
/// ```swift
/// let responses = try await Chain(provider, .register(name: "ada"))
///     .then { previous in .profile(id: try previous.decode(Account.self).id) }
///     .then { previous in try previous.decode(Profile.self).hasAvatar ? .avatar : nil }
///     .run()
/// ```
///
/// A step that returns `nil` ends the chain successfully. A step that throws, or a request that
/// fails, ends it with a ``ChainError`` (step index, underlying error, responses so far); later
/// steps are never called. Cancelling the calling task stops the chain at the current step.
/// Requests go through the provider, so every plugin applies. Steps may do anything async,
/// such as running a batch whose result decides the next target.
public struct Chain<Target: TargetType>: Sendable, CustomStringConvertible {
    /// A step: receives the previous response and returns the next target, or `nil` to stop.
    public typealias Step = @Sendable (_ previous: Response) async throws -> Target?

    /// Sends every request of the chain.
    package let provider: Provider<Target>
    /// The first request.
    package let first: Target
    /// The steps after the first request, in order.
    package let steps: [Step]

    /// Starts a chain with its first target; nothing is sent until ``run()``.
    public init(_ provider: Provider<Target>, _ first: Target) {
        self.init(provider: provider, first: first, steps: [])
    }

    init(provider: Provider<Target>, first: Target, steps: [Step]) {
        self.provider = provider
        self.first = first
        self.steps = steps
    }

    /// `Chain: API.register, then 2 steps`: the first target named by its type and case (never the
    /// values it carries) and how many steps follow.
    public var description: String {
        "Chain: \(targetDescription(first)), then \(steps.count) step\(steps.count == 1 ? "" : "s")"
    }

    /// Returns a chain with `step` appended; sends nothing.
    public func then(_ step: @escaping Step) -> Chain {
        Chain(provider: provider, first: first, steps: steps + [step])
    }

    /// Sends the first target, then each step's target, until a step returns `nil` or the steps end.
    /// - Returns: Every response, in order (at least the first one).
    /// - Throws: ``ChainError`` at the first failure.
    @discardableResult
    public func run() async throws(ChainError) -> [Response] {
        var responses: [Response] = []
        responses.reserveCapacity(steps.count + 1)
        try await send(first, step: 0, into: &responses)
        for (offset, step) in steps.enumerated() {
            let stepIndex = offset + 1
            try checkCancellation(step: stepIndex, stage: .step, responses: responses)
            let next: Target?
            do {
                next = try await step(responses[responses.count - 1])
            } catch {
                throw ChainError(stepIndex: stepIndex, stage: .step, underlying: error, responses: responses)
            }
            guard let next else { break }
            try await send(next, step: stepIndex, into: &responses)
        }
        return responses
    }

    /// Runs the chain, then hands the last response to `body` (a final step that produces a value
    /// rather than a request, such as decoding the result).
    /// - Returns: What `body` returns.
    /// - Throws: ``ChainError``; an error thrown by `body` is reported as step `steps.count + 1`,
    ///   stage ``ChainError/Stage/finally``.
    public func run<Output>(finally body: (_ last: Response) async throws -> Output) async throws(ChainError) -> Output {
        let responses = try await run()
        let stepIndex = steps.count + 1
        try checkCancellation(step: stepIndex, stage: .finally, responses: responses)
        do {
            return try await body(responses[responses.count - 1])
        } catch {
            throw ChainError(stepIndex: stepIndex, stage: .finally, underlying: error, responses: responses)
        }
    }

    /// Runs a chain given all at once: the first target, then steps.
    /// - Returns: Every response, in order.
    /// - Throws: ``ChainError`` at the first failure.
    @discardableResult
    package static func run(_ provider: Provider<Target>, _ first: Target, _ steps: Step...) async throws(ChainError) -> [Response] {
        try await Chain(provider: provider, first: first, steps: steps).run()
    }

    private func send(_ target: Target, step: Int, into responses: inout [Response]) async throws(ChainError) {
        try checkCancellation(step: step, stage: .request, responses: responses)
        do {
            responses.append(try await provider.request(target))
        } catch {
            throw ChainError(
                stepIndex: step, stage: .request, underlying: error, responses: responses,
                target: targetDescription(target))
        }
    }

    private func checkCancellation(step: Int, stage: ChainError.Stage, responses: [Response]) throws(ChainError) {
        if Task.isCancelled {
            throw ChainError(stepIndex: step, stage: stage, underlying: NetworkError.cancelled, responses: responses)
        }
    }
}
