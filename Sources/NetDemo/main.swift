#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import Foundation
import NetCore

// NetDemo: a short tour of NetKit. `scripts/demo` runs it against local servers; on its own it
// starts a local httpbin if it can, and always exits by itself with nothing left behind.

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.contains("--help") || arguments.contains("-h") {
    print(Options.help)
    exit(0)
}
let options: Options
do {
    options = try Options.parse(arguments, environment: ProcessInfo.processInfo.environment)
} catch {
    Console.error("NetDemo: \(error)")
    exit(2)
}

// A write to a server that went away must fail with EPIPE, not end the demo before it cleans up.
signal(SIGPIPE, SIG_IGN)
let cleanup = Cleanup()
let signalSources = SignalTrap.install { signalNumber in
    if !cleanup.isExiting {
        Console.error("\nNetDemo: stopped by \(SignalTrap.name(signalNumber)); cleaning up")
    }
    cleanup.exit(128 + signalNumber)
}

let clock = ContinuousClock()
let started = clock.now
do {
    let work = try WorkDirectory.create()
    cleanup.add { work.finish(keep: options.keepFiles) }
    // Started even when no server will be: it also removes the folder if the demo is killed.
    let group: Result<ServerGroup, DemoError>
    do {
        let newGroup = try ServerGroup.start(removingOnDeath: options.keepFiles ? nil : work.url)
        cleanup.add { newGroup.stop() }
        group = .success(newGroup)
    } catch {
        group = .failure(DemoError("could not start the watchdog that guards local servers: \(error)"))
    }

    var baseURL = options.forceStub ? nil : options.baseURL
    if options.forceStub {
        print("NetDemo: --stub given, using StubTransport (no network)")
    } else if baseURL == nil {
        switch await LocalHTTPBin.startIfInstalled(in: group, workDirectory: work.url, verbose: options.verbose) {
        case .success(let server):
            baseURL = server.url
        case .failure(let error):
            print("NetDemo: no local httpbin (\(options.verbose ? error.description : Console.excerpt(error.description, limit: 400))).")
            print("  Install Debian's python3-httpbin and gunicorn, or run scripts/demo (it installs them).")
            print("  Using StubTransport (no network) meanwhile.")
        }
    }
    if let baseURL {
        print("NetDemo: using httpbin at \(baseURL.absoluteString)")
    }
    try await Tour(baseURL: baseURL, options: options, workDirectory: work.url).run()
    let elapsed = clock.now - started
    print("\nDone in \(String(format: "%.1f", elapsed.seconds)) s.")
    cleanup.exit(0)
} catch {
    // After a signal, failures are the servers being stopped under the tour: not worth a message.
    if !cleanup.isExiting {
        Console.error("\nNetDemo failed: \(error)")
    }
    cleanup.exit(1)
}
