import Foundation
import HTTPBinOpenAPI
import OpenAPIRuntime

// Runs the generated client's operations against the httpbin given as the first argument.
guard CommandLine.arguments.count > 1, let server = URL(string: CommandLine.arguments[1]) else {
    print("usage: OpenAPITour <httpbin URL>")
    exit(2)
}
let client = makeHTTPBinClient(serverURL: server, logLines: { print("  log: \($0)") })

let echo = try await client.getEcho(query: .init(name: "café au lait")).ok.body.json
print("getEcho: args \(echo.args?.additionalProperties ?? [:])")

let posted = try await client.postEcho(body: .json(.init(message: "hello"))).ok.body.json
print("postEcho: json \(posted.json?.message ?? "-")")

switch try await client.getStatus(path: .init(code: 503)) {
case .ok: print("getStatus: unexpected 200")
case .undocumented(let status, _): print("getStatus: \(status) after retries")
}

let first = try await client.getCached(path: .init(seconds: 60)).ok.body.json
let second = try await client.getCached(path: .init(seconds: 60)).ok.body.json
print("getCached: same answer twice (second from the cache): \(first.url == second.url)")

let drip = try await makeStreamingHTTPBinClient(serverURL: server)
    .drip(query: .init(numbytes: 5, duration: 0.2, delay: 0)).ok.body.binary
var received = 0
for try await chunk in drip { received += chunk.count }
print("drip: \(received) bytes streamed")
