import Foundation

/// The demo's command line.
struct Options {
    var baseURL: URL?
    var tlsURL: URL?
    var tlsPin: String?
    var tlsCertificate: URL?
    var forceStub = false
    var verbose = false
    var keepFiles = false

    static let help = """
        NetDemo: a tour of NetKit against a local httpbin.

        usage: swift run NetDemo [--base-url URL] [--tls-url URL --tls-pin PIN --tls-cert FILE] [--stub]
                                 [--verbose] [--keep-files]

          --base-url URL   httpbin to use (default: $NETKIT_HTTPBIN_URL, else start a local httpbin if
                           gunicorn and httpbin are installed (found as scripts/servers.sh finds them),
                           else stubs)
          --tls-url URL    an https server for the pinning section (default: $NETKIT_TLS_URL)
          --tls-pin PIN    its SPKI SHA-256 pin, base64 (default: $NETKIT_TLS_PIN)
          --tls-cert FILE  its certificate (PEM), trusted for this demo (default: $NETKIT_TLS_CERT)
          --stub           use StubTransport only, no network
          --verbose        log headers and bodies, print errors in full, say how the local httpbin runs
          --keep-files     keep the demo's temporary folder (HAR, download, server log) and print where
          --help           this text

        scripts/demo starts httpbin and a TLS nginx and passes these for you. A local httpbin started
        by the demo is stopped when it ends, also when it is interrupted or killed.
        """

    /// Parses `arguments`; throws ``DemoError`` with a message on bad input.
    static func parse(_ arguments: [String], environment: [String: String]) throws -> Options {
        var options = Options()
        options.baseURL = environment["NETKIT_HTTPBIN_URL"].flatMap(URL.init(string:))
        options.tlsURL = environment["NETKIT_TLS_URL"].flatMap(URL.init(string:))
        options.tlsPin = environment["NETKIT_TLS_PIN"]
        options.tlsCertificate = environment["NETKIT_TLS_CERT"].map { URL(fileURLWithPath: $0) }
        var iterator = arguments.makeIterator()
        func value(for flag: String) throws -> String {
            guard let value = iterator.next() else { throw DemoError("\(flag) needs a value (see --help)") }
            return value
        }
        func url(for flag: String) throws -> URL {
            let text = try value(for: flag)
            guard let url = URL(string: text), url.scheme != nil else { throw DemoError("\(flag): \"\(text)\" is not a URL") }
            return url
        }
        while let argument = iterator.next() {
            switch argument {
            case "--base-url": options.baseURL = try url(for: argument)
            case "--tls-url": options.tlsURL = try url(for: argument)
            case "--tls-pin": options.tlsPin = try value(for: argument)
            case "--tls-cert": options.tlsCertificate = URL(fileURLWithPath: try value(for: argument))
            case "--stub": options.forceStub = true
            case "--verbose", "-v": options.verbose = true
            case "--keep-files": options.keepFiles = true
            default: throw DemoError("unknown argument \(argument) (see --help)")
            }
        }
        return options
    }
}

/// A failure the demo explains in one sentence.
struct DemoError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
