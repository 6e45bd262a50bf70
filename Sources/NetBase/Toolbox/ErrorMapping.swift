extension NetworkError {
    /// Any error as a ``NetworkError``: a ``NetworkError`` passes through, a `CancellationError`
    /// becomes ``cancelled``, and anything else is handed to `otherwise`, which says what that
    /// kind of failure means where it happened (a transport error, a plugin's failure, …).
    package static func mapping(_ error: any Error, otherwise: (any Error) -> NetworkError) -> NetworkError {
        if let error = error as? NetworkError { return error }
        if error is CancellationError { return .cancelled }
        return otherwise(error)
    }
}
