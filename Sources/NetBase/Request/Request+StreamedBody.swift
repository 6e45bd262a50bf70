import Foundation

extension Request {
    /// Whether this call's response body goes to a reader as it arrives (``/NetCore/Provider``'s
    /// `stream(_:options:)`) instead of into ``Response/data``: the 2xx response the hooks see
    /// (`succeed`, `didReceive`, `process`) then has an empty `data`, because its body went to the
    /// reader. A plugin that keeps bodies (a cache) must not take that emptiness for the body.
    public package(set) var streamsResponseBody: Bool {
        get { context[StreamedBodyKey.self] }
        set { context[StreamedBodyKey.self] = newValue }
    }
}

/// Marks a request of a streamed call (``Request/streamsResponseBody``).
private enum StreamedBodyKey: RequestContextKey {
    static let defaultValue = false
}
