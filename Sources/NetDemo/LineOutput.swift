#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The demo's `print`: Swift's, followed by a flush, so that into a log file or a pipe each line
/// is written as it happens (C's `stdout` is fully buffered there) and nothing is lost in a buffer
/// when the demo is killed. `setvbuf(stdout, …)` would do it once, but Swift 6 rejects any use of
/// the C global `stdout` as shared mutable state.
func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
    Swift.print(items.map { "\($0)" }.joined(separator: separator), terminator: terminator)
    fflush(nil)
}
