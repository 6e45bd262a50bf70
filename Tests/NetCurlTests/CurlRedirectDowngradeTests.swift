import Foundation
import NetCore
import NetCurl
import Testing
import NetTestSupport

/// An https server (the test certificate) that redirects every request to a plain-http URL.
private final class DowngradingServer {
    let url: URL
    private let process: Process

    init?(certificate: String, target: URL) throws {
        let key = URL(fileURLWithPath: certificate).deletingLastPathComponent().appendingPathComponent("key.pem").path
        guard FileManager.default.isReadableFile(atPath: key) else { return nil }
        let script = """
            import http.server, ssl, sys
            class Handler(http.server.BaseHTTPRequestHandler):
                def do_GET(self):
                    self.send_response(302)
                    self.send_header("Location", sys.argv[3])
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                def log_message(self, *args):
                    pass
            server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.load_cert_chain(sys.argv[1], sys.argv[2])
            server.socket = context.wrap_socket(server.socket, server_side=True)
            print(server.server_address[1], flush=True)
            server.serve_forever()
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, certificate, key, target.absoluteString]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        self.process = process
        var line = Data()
        while !line.contains(0x0A) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        guard let port = Int(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) else {
            kill(process.processIdentifier, SIGKILL)
            return nil
        }
        url = URL(string: "https://127.0.0.1:\(port)/start")!
    }

    deinit {
        // SIGKILL: children of a Swift test process may inherit a blocked SIGTERM.
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}

@Suite("CurlTransport refuses https to http redirects")
struct CurlRedirectDowngradeTests {
    /// The request needs a TLS policy to trust the test server's self-signed certificate, and a
    /// request with a TLS policy never leaves TLS, whatever the redirect policy says.
    @Test(.liveServers) func aRedirectFromHTTPSToHTTPIsRefusedByDefaultAndForPolicyRequestsEvenWhenAllowed() async throws {
        let nginx = try TestServers.require("NETKIT_NGINX_URL")
        let certificatePath = try TestServers.requireValue("NETKIT_TLS_CERT")
        let plain = nginx.appendingPathComponent("small.json")
        guard let server = try DowngradingServer(certificate: certificatePath, target: plain) else {
            Issue.record("could not start the https redirect server")
            return
        }
        let policy = TLSPolicy(trustedCertificates: [try Data(contentsOf: URL(fileURLWithPath: certificatePath))])
        let error = await networkError { try await CurlTransport().send(.to(server.url, tls: policy)) }
        guard case .redirectRefused? = error else { Issue.record("got \(String(describing: error))"); return }

        let permissive = CurlTransport(configuration: .init(redirectPolicy: RedirectPolicy(allowsDowngrade: true)))
        let permissiveError = await networkError { try await permissive.send(.to(server.url, tls: policy)) }
        guard case .redirectRefused? = permissiveError else { Issue.record("got \(String(describing: permissiveError))"); return }
    }
}
