import Foundation
import NetCore

/// What ``ReplayTransport`` does with a request that no unused recording answers.
public enum ReplayMode: Sendable {
    /// Never touch the network. When every matching recording has answered once, the last of
    /// them answers again; a request that matches nothing fails (see ``ReplayTransport``).
    case replayOnly

    /// Send it with `transport`, answer with the real response, and append the exchange to the
    /// HAR file at `to` (created when missing, written atomically), redacted by `redaction` as
    /// ``CapturePlugin/harData()`` redacts its export. A request is "missing" when no *unused*
    /// recording matches it, so repeated identical requests are each recorded once, in order.
    /// Failures of `transport` (no response) are passed on and not recorded.
    case recordWhenMissing(transport: any Transport, to: URL, redaction: Redaction = .default)
}
