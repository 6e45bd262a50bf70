// Runs every step of the tour against a running httpbin and exits 0 only if all of them passed.
//
//   swift run HTTPBinTour http://127.0.0.1:8080    # an httpbin you started
//   swift run HTTPBinTour                           # the one in $NETKIT_HTTPBIN_URL
//
// A local httpbin: `pip install httpbin gunicorn && gunicorn -b 127.0.0.1:8080 httpbin:app`, or
// from the repository root `scripts/with-servers <command>`, which starts one and sets
// NETKIT_HTTPBIN_URL for the command.
import Foundation

let argument = CommandLine.arguments.dropFirst().first
guard let text = argument ?? ProcessInfo.processInfo.environment["NETKIT_HTTPBIN_URL"],
    let baseURL = URL(string: text), baseURL.host != nil
else {
    print("usage: HTTPBinTour <httpbin URL>   (or set NETKIT_HTTPBIN_URL)")
    exit(2)
}

print("httpbin at \(baseURL.absoluteString)")
do {
    try await Tour(baseURL: baseURL).run()
    print("\nall steps passed")
} catch {
    print("\nFAILED: \(error)")
    exit(1)
}
