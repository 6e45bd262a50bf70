#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import Dispatch

/// Turns SIGINT, SIGTERM and SIGHUP into a handler call on a background queue, so that an
/// interrupted demo can stop its servers and remove its folder before it exits.
enum SignalTrap {
    /// Installs `handler` for the signals; keep the returned sources alive for as long as the
    /// handler should run.
    static func install(_ signals: [Int32] = [SIGINT, SIGTERM, SIGHUP], handler: @escaping @Sendable (Int32) -> Void) -> [any DispatchSourceSignal] {
        signals.map { signalNumber in
            signal(signalNumber, SIG_IGN)  // the dispatch source receives it instead
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler { handler(signalNumber) }
            source.resume()
            return source
        }
    }

    /// The signal's name, for messages.
    static func name(_ signalNumber: Int32) -> String {
        switch signalNumber {
        case SIGINT: "SIGINT"
        case SIGTERM: "SIGTERM"
        case SIGHUP: "SIGHUP"
        default: "signal \(signalNumber)"
        }
    }
}
