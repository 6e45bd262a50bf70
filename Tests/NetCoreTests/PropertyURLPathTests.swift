import NetToolbox
import Foundation
import NetCore
import NetTestSupport
import Testing

/// Property tests for joining a target's path to its base URL.
@Suite("Property: URL paths")
struct PropertyURLPathTests {
    /// Base URLs with what the built URL must start and end with when the path is not empty.
    static let bases: [(base: String, prefix: String, suffix: String)] = [
        ("https://api.example.com", "https://api.example.com", ""),
        ("https://api.example.com/", "https://api.example.com", ""),
        ("http://api.example.com:8080/v1", "http://api.example.com:8080/v1", ""),
        ("https://api.example.com/v1/?key=1", "https://api.example.com/v1", "?key=1"),
    ]

    @Test("any path without % builds a valid URL whose path decodes back to it")
    func pathsWithoutPercentBuild() async throws {
        try await forAll(
            "url path",
            generate: { random in
                (path: AwkwardText.string(&random, pieces: AwkwardText.withoutPercent), base: random.pick(Self.bases))
            }, describe: { "path \(visible($0.path)) base \($0.base.base)" }
        ) { path, base in
            let log = TransportLog()
            let target = TestTarget(baseURL: URL(string: base.base)!, path: path)
            let provider = Provider<TestTarget>(transport: StubTransport.counting(log))
            do {
                _ = try await provider.request(target)
            } catch {
                return "the request failed: \(error)"
            }
            guard let url = log.last?.url.absoluteString, log.count == 1 else { return "the stub saw \(log.count) requests" }
            return PathExpectation.mismatch(url: url, path: path, base: base)
        }
    }

    @Test("valid %XX escapes in a path are sent as written, never encoded twice")
    func validEscapesAreKept() async throws {
        let escapes = ["%2F", "%20", "%25", "%e2%82%ac", "%3F", "%23", "%FF", "%00", "%41"]
        try await forAll(
            "url path escapes", cases: PropertySettings.cases / 2,
            generate: { random in
                var path = ""
                for _ in 0..<random.below(10) {
                    path += random.chance(30) ? random.pick(escapes) : random.pick(AwkwardText.withoutPercent)
                }
                return path
            }, describe: visible
        ) { path in
            let log = TransportLog()
            let provider = Provider<TestTarget>(transport: StubTransport.counting(log))
            do {
                _ = try await provider.request(TestTarget(path: path))
            } catch {
                return "the request failed: \(error)"
            }
            guard let url = log.last?.url.absoluteString else { return "the stub saw no request" }
            let expected = path.isEmpty ? "https://api.example.com" : "https://api.example.com" + PathExpectation.encoded(PathExpectation.slashed(path))
            return sameBytes(url, expected) ? nil : "URL \(url), expected \(expected)"
        }
    }

    @Test("a path with a malformed % escape fails with invalidURL before anything is sent")
    func malformedEscapesFail() async throws {
        try await forAll(
            "url path malformed", cases: PropertySettings.cases / 2,
            generate: { random in
                let characters = Array(AwkwardText.string(&random, pieces: AwkwardText.withoutPercent, allowLong: false))
                let bad = random.pick(["%", "%4", "%G1", "%1G", "%%", "% 1", "%-1", "%é", "%\u{0}0", "%+1"])
                // An unfinished escape goes last, where no following text can complete it.
                let cut = bad.count < 3 ? characters.count : random.below(characters.count + 1)
                return String(characters[..<cut]) + bad + String(characters[cut...])
            }, describe: visible
        ) { path in
            let log = TransportLog()
            let provider = Provider<TestTarget>(transport: StubTransport.counting(log))
            do throws(NetworkError) {
                let response = try await provider.request(TestTarget(path: path))
                return "the request succeeded with \(response.request.url)"
            } catch {
                guard case .invalidURL = error else { return "failed with \(error.caseName), expected invalidURL: \(error)" }
                return log.count == 0 ? nil : "the transport was called \(log.count) times"
            }
        }
    }
}

/// The URL a path should produce, worked out from RFC 3986 rather than from NetCore.
enum PathExpectation {
    /// Keeps unreserved characters, sub-delimiters, `:`, `@`, `/` and `%XX` escapes; escapes every
    /// other UTF-8 byte as upper-case `%XX`.
    static func encoded(_ path: String) -> String {
        let keep = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()*+,;=:@/".utf8)
        let hex = Set("0123456789ABCDEFabcdef".utf8)
        let bytes = Array(path.utf8)
        var output = ""
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%"), index + 2 < bytes.count, hex.contains(bytes[index + 1]), hex.contains(bytes[index + 2]) {
                output += String(decoding: bytes[index...index + 2], as: UTF8.self)
                index += 3
                continue
            }
            if keep.contains(byte) {
                output.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                output += "%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
            }
            index += 1
        }
        return output
    }

    /// `path` with a leading `/`. Checked by scalar: `"/\u{301}"` is one `Character`, so
    /// `hasPrefix("/")` would say no, yet the path does start with a slash byte.
    static func slashed(_ path: String) -> String {
        path.unicodeScalars.first == "/" ? path : "/" + path
    }

    /// Why `url` is not what `path` on `base` should build, or `nil`.
    static func mismatch(url: String, path: String, base: (base: String, prefix: String, suffix: String)) -> String? {
        guard !path.isEmpty else { return sameBytes(url, base.base) ? nil : "URL \(url), expected the base URL \(base.base)" }
        let slashed = slashed(path)
        let expected = base.prefix + encoded(slashed) + base.suffix
        guard sameBytes(url, expected) else { return "URL \(url), expected \(expected)" }
        let sent = url.dropFirst(base.prefix.count).dropLast(base.suffix.count)
        guard sameBytes(PercentEncoding.decode(String(sent)), slashed) else {
            return "the sent path \(sent) decodes to \(PercentEncoding.decode(String(sent)).map(visible) ?? "nil"), not \(visible(slashed))"
        }
        return nil
    }
}
