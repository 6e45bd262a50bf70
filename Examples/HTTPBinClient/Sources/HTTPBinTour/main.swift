// Runs every step of the tour against a running httpbin and exits 0 only if all of them passed.
//
//   swift run HTTPBinTour http://127.0.0.1:8080    # an httpbin you started
//   swift run HTTPBinTour                           # the one in $NETKIT_HTTPBIN_URL
//   swift run HTTPBinTour http://127.0.0.1:8080 ws://127.0.0.1:8765   # and a WebSocket echo server
//
// The WebSocket step (9) runs when an echo server is given (second argument or $NETKIT_WS_URL,
// `scripts/ws_echo_server.py`); it is skipped otherwise, unless NETKIT_TOUR_REQUIRE_WEBSOCKET=1.
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

let environment = ProcessInfo.processInfo.environment
let socketText = CommandLine.arguments.dropFirst(2).first ?? environment["NETKIT_WS_URL"]
let webSocketURL = socketText.flatMap { URL(string: $0) }
if webSocketURL == nil, environment["NETKIT_TOUR_REQUIRE_WEBSOCKET"] == "1" {
    print("NETKIT_TOUR_REQUIRE_WEBSOCKET=1 but no WebSocket echo server was given (NETKIT_WS_URL)")
    exit(2)
}

print("httpbin at \(baseURL.absoluteString)")
do {
    try await Tour(baseURL: baseURL, webSocketURL: webSocketURL).run()
    print("\nall steps passed")
} catch {
    print("\nFAILED: \(error)")
    exit(1)
}
