import NetBase

/// A transport that runs Swift tasks on its own threads (``CurlTransport``'s event loop): a call
/// made from a task that prefers this executor keeps preferring it, so it skips the thread
/// hand-offs the preference was chosen to avoid.
package protocol ExecutorOwningTransport: Transport {
    /// The executor tasks may prefer to run on the transport's threads.
    var executor: any TaskExecutor { get }
}
