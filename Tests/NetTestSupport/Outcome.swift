import NetCore

/// What `body` returned, or the `NetworkError` it threw (any other error wrapped by
/// `NetworkError(_:)`, as a call would).
public func outcome<T>(_ body: () async throws -> T) async -> Result<T, NetworkError> {
    do {
        return .success(try await body())
    } catch {
        return .failure(error as? NetworkError ?? NetworkError(error))
    }
}

/// The `NetworkError` `task` failed with, or `nil` when it succeeded (or threw something else).
public func networkError<T>(of task: Task<T, any Error>) async -> NetworkError? {
    if case .failure(let error) = await task.result { return error as? NetworkError }
    return nil
}

extension Result where Failure == NetworkError {
    /// The error, or `nil` for a success.
    public var failure: NetworkError? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
