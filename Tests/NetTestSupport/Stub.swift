import NetCore

/// A stub transport answering each request with `answer`'s response.
public func stub(_ answer: @escaping @Sendable (Request) async throws -> Response) -> StubTransport {
    StubTransport(behavior: .custom(answer))
}
