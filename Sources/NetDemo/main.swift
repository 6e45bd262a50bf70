import Foundation
import Synchronization

// NetDemo: a short tour of NetKit. `scripts/demo` runs it against local servers.

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.contains("--help") || arguments.contains("-h") {
    print(Options.help)
    exit(0)
}

let clock = ContinuousClock()
let started = clock.now
var localServer: LocalHTTPBin?
do {
    let options = try Options.parse(arguments, environment: ProcessInfo.processInfo.environment)
    var baseURL = options.forceStub ? nil : options.baseURL
    if baseURL == nil, !options.forceStub, let server = await LocalHTTPBin.start() {
        localServer = server
        baseURL = server.url
    }
    if let baseURL {
        print("NetDemo: using httpbin at \(baseURL.absoluteString)")
    } else {
        print("NetDemo: no httpbin available, using StubTransport (no network); pass --base-url or install python3-httpbin")
    }
    let work = FileManager.default.temporaryDirectory.appendingPathComponent("netkit-demo-\(ProcessInfo.processInfo.processIdentifier)")
    try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
    try await Tour(baseURL: baseURL, options: options, workDirectory: work).run()
    localServer?.stop()
    print("\nDone in \(clock.now - started).")
} catch {
    localServer?.stop()
    FileHandle.standardError.write(Data("\nNetDemo failed: \(error)\n".utf8))
    exit(1)
}
