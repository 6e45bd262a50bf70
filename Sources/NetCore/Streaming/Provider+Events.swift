import NetBase
import Foundation

extension Provider {
    /// Server-Sent Events from `target`, optionally reconnecting like a browser's EventSource.
    ///
    /// ```swift
    /// for try await event in provider.events(.feed, reconnect: true) { print(event.data) }
    /// ```
    ///
    /// With `reconnect` (off by default), a feed that ends or breaks (a lost connection, a
    /// timeout, a malformed chunk) is opened again after the server's last `retry:` (3 s until it
    /// sends one), with `Last-Event-ID` set to the last id seen, so the server can resume. An
    /// HTTP error (a non-2xx head), a request that could not be built, and cancellation (of the
    /// iterating task, or ``cancelAll()``) end the sequence; so does reaching `maxReconnects`.
    public func events(
        _ target: Target, options: StreamOptions = StreamOptions(), reconnect: Bool = false, maxReconnects: Int = .max
    ) -> AsyncThrowingStream<ServerSentEvent, any Error> {
        let (events, continuation) = AsyncThrowingStream<ServerSentEvent, any Error>.makeStream()
        // One call for the whole sequence (`cancelAll()` ends it, reconnect waits included).
        let task = calls.start { [self] in
            var options = options
            var delay = Duration.seconds(3)
            var reconnects = 0
            while true {
                var failure: NetworkError?
                do {
                    for try await event in stream(target, options: options).events {
                        if let id = event.id { options.lastEventID = id }
                        if let retry = event.retry { delay = retry }
                        continuation.yield(event)
                    }
                } catch {
                    failure = NetworkError(error)
                }
                let resumable = failure.map { !$0.isCancellation && $0.response == nil && $0.isReconnectable } ?? true
                guard reconnect, resumable, reconnects < maxReconnects, !Task.isCancelled else {
                    continuation.finish(throwing: failure)
                    return
                }
                reconnects += 1
                do {
                    try await configuration.clock.sleep(for: delay)
                } catch {
                    continuation.finish(throwing: NetworkError.cancelled)
                    return
                }
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return events
    }
}

extension NetworkError {
    /// Whether an event stream that ended with this error may be opened again: a transient
    /// failure (``NetworkError/Code/transient``); a server that broke the protocol is not retried.
    var isReconnectable: Bool { isTransient }
}
