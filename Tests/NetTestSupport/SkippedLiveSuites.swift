import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Counts what `.liveServers` skipped and, when the test process exits, prints one line saying
/// so, after Swift Testing's own "Test run with N tests ... passed" summary.
///
/// Swift Testing has no global teardown hook and runs suites in no guaranteed order, so a
/// "last suite" cannot be relied on. Instead the condition of `.liveServers` counts: Swift
/// Testing evaluates it once for every suite it marks and once for every test inside (the trait
/// is inherited), so the count is suites plus tests, matching the "skipped" lines above it.
/// `atexit` runs after the run's summary has been written. XCTest's pass runs in its own process and never evaluates the trait, so it
/// prints nothing. Under `scripts/test` (`NETKIT_REQUIRE_SERVERS=1`) nothing is skipped and
/// nothing is printed.
enum SkippedLiveSuites {
    private static let count = Counter()

    /// Records one skipped suite or test; registers the exit notice the first time.
    static func record() {
        if count.increment() == 1 {
            atexit { SkippedLiveSuites.printNotice() }
        }
    }

    private static func printNotice() {
        let skipped = count.count
        guard skipped > 0 else { return }
        let line =
            "NOTE: \(skipped) live-server suites and tests were skipped (no test servers: "
            + "NETKIT_HTTPBIN_URL is not set); run scripts/test to start the servers and run them.\n"
        // Swift Testing writes its summary to standard error; write there too so the note
        // follows it, and flush standard output first for anything a test printed.
        fflush(nil)
        FileHandle.standardError.write(Data(line.utf8))
    }
}
