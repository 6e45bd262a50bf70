import Foundation
import NetCore
import NetTestSupport
import Testing

/// Property tests for `multipart/form-data`: a plain RFC 7578 reader gets back every part's name,
/// file name, content type and bytes from the body a transport would stream.
@Suite("Property: multipart encoding")
struct PropertyMultipartTests {
    @Test("a streamed multipart body parses back to its parts, and its length is announced exactly")
    func multipartBodyParsesBack() async throws {
        try await forAll(
            "multipart round trip", cases: PropertySettings.cases / 2,
            generate: { random in
                (specs: PartSpec.list(&random), bufferSize: random.chance(20) ? 1 + random.below(64) : 64 + random.below(100_000))
            }, describe: { "buffer \($0.bufferSize) bytes, parts:\n" + PartSpec.describe($0.specs) }
        ) { specs, bufferSize in
            let directory = try TemporaryDirectory()
            var parts: [MultipartPart] = []
            for (index, spec) in specs.enumerated() { parts.append(try spec.part(in: directory, index: index)) }
            let request = try await sentRequest(for: TestTarget(method: .post, content: .multipart(parts)))
            let contentType = request.headers["Content-Type"] ?? ""
            guard let boundary = MultipartReader.boundary(in: contentType) else {
                return "no boundary in Content-Type \(visible(contentType))"
            }
            let body = try readBody(request.body, bufferSize: bufferSize)
            guard request.body.contentLength == Int64(body.count) else {
                return "contentLength \(request.body.contentLength.map(String.init) ?? "nil") but \(body.count) bytes were read"
            }
            let decoded: [MultipartReader.Part]
            do {
                decoded = try MultipartReader.parts(of: body, boundary: boundary)
            } catch {
                return "the body does not parse: \(error)\nbody: \(visible(String(decoding: body.prefix(600), as: UTF8.self)))"
            }
            guard decoded.count == specs.count else { return "\(decoded.count) parts parsed, expected \(specs.count)" }
            for (index, (part, spec)) in zip(decoded, specs).enumerated() {
                if let problem = spec.mismatch(part) { return "part \(index): \(problem)" }
            }
            return nil
        }
    }

    @Test("a quote or line break followed by a combining mark in a name or file name is still escaped")
    func quoteOrLineBreakBeforeCombiningMarkIsEscaped() async throws {
        try await forAll(
            "multipart escape before combining mark", cases: 50,
            generate: { (random: inout SplitMix64) -> (text: String, inFileName: Bool) in
                let special = random.pick(["\"", "\r", "\n"])
                let mark = random.pick(["\u{301}", "\u{308}", "\u{FE0F}", "\u{1F3FD}", "\u{20E3}"])
                let text = random.pick(["a", "name", ""]) + special + mark + random.pick(["", "b", "; filename=\"x.sh"])
                return (text: text, inFileName: random.chance(50))
            }, describe: { "\(visible($0.text)) as \($0.inFileName ? "file name" : "name")" }
        ) { text, inFileName in
            let part =
                inFileName
                ? MultipartPart(name: "field", data: Data("1".utf8), fileName: text)
                : MultipartPart(name: text, data: Data("1".utf8))
            let request = try await sentRequest(for: TestTarget(method: .post, content: .multipart([part])))
            let boundary = try #require(MultipartReader.boundary(in: request.headers["Content-Type"] ?? ""))
            let body = try readBody(request.body, bufferSize: 4096)
            let decoded: [MultipartReader.Part]
            do {
                decoded = try MultipartReader.parts(of: body, boundary: boundary)
            } catch {
                return "the body does not parse: \(error)\nbody: \(visible(String(decoding: body, as: UTF8.self)))"
            }
            let sent = inFileName ? decoded.first?.fileName : decoded.first?.name
            let expected = PartSpec.escaped(text)
            return sameBytes(sent, expected) ? nil : "sent \(sent.map(visible) ?? "nil"), expected \(visible(expected))"
        }
    }

    @Test("a part's content type cannot add header lines to the part")
    func contentTypeCannotInjectHeaders() async throws {
        try await forAll(
            "multipart content type injection", cases: 20,
            generate: { random in
                let injected =
                    random.pick(["\r\n", "\n", "\r"]) + "X-Injected: " + AwkwardText.string(&random, pieces: AwkwardText.unreserved, allowLong: false)
                return "text/plain" + injected
            }, describe: visible
        ) { mimeType in
            let parts = [MultipartPart(name: "field", data: Data("value".utf8), mimeType: mimeType)]
            let request: Request
            do {
                request = try await sentRequest(for: TestTarget(method: .post, content: .multipart(parts)))
            } catch {
                return nil  // refusing such a content type is fine too
            }
            // Escaping the line break or refusing the part would both be fine; a raw one is not.
            let body = try readBody(request.body, bufferSize: 4096)
            let injected = body.range(of: Data("\rX-Injected".utf8)) != nil || body.range(of: Data("\nX-Injected".utf8)) != nil
            return injected ? "the part headers carry a raw line break: \(visible(String(decoding: body, as: UTF8.self)))" : nil
        }
    }
}

// MARK: - Generated parts

/// What one generated part should be, before it becomes a ``MultipartPart``.
struct PartSpec {
    enum Kind {
        case data(Data)
        case text(String)
        /// A file on disk named `diskName`; `fileName` and `mimeType` are the explicit arguments.
        case file(contents: Data, diskName: String)
    }

    var name: String
    var kind: Kind
    var fileName: String?
    var mimeType: String?

    static let mimeTypes = [
        "text/plain", "application/json; charset=utf-8", "image/png", "application/octet-stream",
        "text/plain; charset=\"utf-8\"", "application/vnd.netkit+json",
    ]
    /// Extensions with the content type NetCore documents guessing for them.
    static let extensions: [(ext: String, mimeType: String)] = [
        ("txt", "text/plain"), ("json", "application/json"), ("PNG", "image/png"), ("jpeg", "image/jpeg"),
        ("tar.gz", "application/octet-stream"), ("bin", "application/octet-stream"), ("", "application/octet-stream"),
    ]

    static func list(_ random: inout SplitMix64) -> [PartSpec] {
        (0..<random.below(7)).map { _ in spec(&random) }
    }

    static func spec(_ random: inout SplitMix64) -> PartSpec {
        let name = AwkwardText.string(&random, allowLong: false)
        let fileName = random.chance(40) ? AwkwardText.string(&random, allowLong: false) : nil
        let mimeType = random.chance(50) ? random.pick(mimeTypes) : nil
        switch random.below(3) {
        case 0:
            return PartSpec(name: name, kind: .data(AwkwardText.bytes(&random, maxCount: 20_000)), fileName: fileName, mimeType: mimeType)
        case 1:
            return PartSpec(name: name, kind: .text(AwkwardText.string(&random)))
        default:
            // Disk names avoid "/" and NUL, which no file name can hold, and "." / "..".
            // File names hold at most 255 bytes.
            var stem = ""
            for _ in 0..<random.below(13) {
                let piece = random.pick(AwkwardText.withoutPercent + ["%", "%41"])
                if stem.utf8.count + piece.utf8.count < 200, piece != "/", piece != "\u{0}" { stem += piece }
            }
            let ext = random.pick(extensions).ext
            let diskName = "f" + stem + (ext.isEmpty ? "" : "." + ext)
            return PartSpec(
                name: name, kind: .file(contents: AwkwardText.bytes(&random, maxCount: 80_000), diskName: diskName),
                fileName: fileName, mimeType: mimeType)
        }
    }

    /// Writes file parts into their own folder of `directory` and returns the part.
    func part(in directory: borrowing TemporaryDirectory, index: Int) throws -> MultipartPart {
        switch kind {
        case .data(let data):
            return MultipartPart(name: name, data: data, fileName: fileName, mimeType: mimeType)
        case .text(let text):
            return MultipartPart(name: name, value: text)
        case .file(let contents, let diskName):
            let folder = directory.url.appendingPathComponent("\(index)", isDirectory: true)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let url = folder.appendingPathComponent(diskName)
            try contents.write(to: url)
            return MultipartPart(name: name, fileURL: url, fileName: fileName, mimeType: mimeType)
        }
    }

    /// Why a parsed part does not match this spec, or `nil`.
    func mismatch(_ part: MultipartReader.Part) -> String? {
        let expectedBytes: Data
        var expectedFileName = fileName
        var expectedType = mimeType
        switch kind {
        case .data(let data):
            expectedBytes = data
        case .text(let text):
            expectedBytes = Data(text.utf8)
        case .file(let contents, let diskName):
            expectedBytes = contents
            expectedFileName = fileName ?? diskName
            if mimeType == nil {
                let ext = Self.extensions.first { !$0.ext.isEmpty && diskName.lowercased().hasSuffix("." + $0.ext.lowercased()) }
                expectedType = ext?.mimeType ?? "application/octet-stream"
            }
        }
        guard part.dispositionType == "form-data" else { return "disposition \(part.dispositionType.map(visible) ?? "nil")" }
        guard sameBytes(part.name, Self.escaped(name)) else {
            return "name \(part.name.map(visible) ?? "nil"), expected \(visible(Self.escaped(name)))"
        }
        guard sameBytes(part.fileName, expectedFileName.map(Self.escaped)) else {
            return "filename \(part.fileName.map(visible) ?? "nil"), expected \(expectedFileName.map { visible(Self.escaped($0)) } ?? "nil")"
        }
        guard sameBytes(part.contentType, expectedType) else {
            return "Content-Type \(part.contentType.map(visible) ?? "nil"), expected \(expectedType.map(visible) ?? "nil")"
        }
        guard part.body == expectedBytes else {
            let firstDifference = zip(part.body, expectedBytes).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            return "body of \(part.body.count) bytes, expected \(expectedBytes.count); first difference at \(firstDifference.map(String.init) ?? "the end")"
        }
        return nil
    }

    /// The documented quoting of names and file names: `"` → `%22`, CR → `%0D`, LF → `%0A`, scalar by scalar.
    static func escaped(_ text: String) -> String {
        var output = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "%22"
            case "\r": output += "%0D"
            case "\n": output += "%0A"
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output
    }

    static func describe(_ specs: [PartSpec]) -> String {
        specs.map { spec in
            let kind =
                switch spec.kind {
                case .data(let data): "data(\(data.count) bytes)"
                case .text(let text): "text(\(visible(text)))"
                case .file(let contents, let diskName): "file(\(visible(diskName)), \(contents.count) bytes)"
                }
            return "\(visible(spec.name)) \(kind) fileName: \(spec.fileName.map(visible) ?? "nil") mimeType: \(spec.mimeType ?? "nil")"
        }.joined(separator: "\n")
    }
}

// MARK: - Test-side multipart reader

/// A minimal `multipart/form-data` reader written from RFC 2046 / 7578, not from NetCore.
enum MultipartReader {
    struct Part {
        var headers: [(name: String, value: String)]
        var body: Data
        var dispositionType: String?
        var name: String?
        var fileName: String?
        var contentType: String? { headers.first { $0.name.lowercased() == "content-type" }?.value }
    }

    struct ParseError: Error, CustomStringConvertible {
        var description: String
    }

    /// The `boundary` parameter of a `multipart/form-data` content type.
    static func boundary(in contentType: String) -> String? {
        let pieces = contentType.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        guard pieces.first?.lowercased() == "multipart/form-data" else { return nil }
        for piece in pieces.dropFirst() where piece.lowercased().hasPrefix("boundary=") {
            var value = piece.dropFirst("boundary=".count)
            if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = value.dropFirst().dropLast() }
            return value.isEmpty ? nil : String(value)
        }
        return nil
    }

    /// The parts of `body`: `--boundary CRLF part (CRLF --boundary CRLF part)* CRLF --boundary-- CRLF`.
    static func parts(of body: Data, boundary: String) throws(ParseError) -> [Part] {
        let bytes = [UInt8]("\r\n".utf8) + [UInt8](body)  // so every delimiter starts with CRLF
        let delimiter = [UInt8]("\r\n--\(boundary)".utf8)
        guard let first = find(delimiter, in: bytes, from: 0), first == 0 else {
            throw ParseError(description: "the body does not start with --boundary")
        }
        var parts: [Part] = []
        var position = delimiter.count
        while true {
            let after = Array(bytes[position..<min(position + 2, bytes.count)])
            if after == Array("--".utf8) {
                guard Array(bytes[(position + 2)...]) == Array("\r\n".utf8) else {
                    throw ParseError(description: "bytes after the close delimiter")
                }
                return parts
            }
            guard after == Array("\r\n".utf8) else { throw ParseError(description: "no CRLF after a delimiter at \(position)") }
            let start = position + 2
            guard let end = find(delimiter, in: bytes, from: start) else {
                throw ParseError(description: "part at \(start) has no closing delimiter")
            }
            parts.append(try part(Array(bytes[start..<end])))
            position = end + delimiter.count
        }
    }

    private static func part(_ bytes: [UInt8]) throws(ParseError) -> Part {
        guard let split = find(Array("\r\n\r\n".utf8), in: bytes, from: 0) else {
            throw ParseError(description: "a part without a blank line after its headers")
        }
        guard let headerText = String(validating: bytes[..<split], as: UTF8.self) else {
            throw ParseError(description: "part headers are not UTF-8")
        }
        var part = Part(headers: [], body: Data(bytes[(split + 4)...]))
        for line in headerText.components(separatedBy: "\r\n") {
            guard let colon = line.unicodeScalars.firstIndex(of: ":") else {
                throw ParseError(description: "header line without a colon: \(visible(line))")
            }
            let name = String(line.unicodeScalars[..<colon])
            let value = String(line.unicodeScalars[line.unicodeScalars.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
            guard !name.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" }) else {
                throw ParseError(description: "a bare line break in the part headers")
            }
            part.headers.append((name, value))
            if name.lowercased() == "content-disposition" { try parseDisposition(value, into: &part) }
        }
        return part
    }

    /// `form-data; name="…"; filename="…"`, read scalar by scalar: a `"` followed by a combining
    /// mark is still a quote on the wire.
    private static func parseDisposition(_ value: String, into part: inout Part) throws(ParseError) {
        let scalars = Array(value.unicodeScalars)
        var index = 0
        func read(while condition: (Unicode.Scalar) -> Bool) -> String {
            var text = String.UnicodeScalarView()
            while index < scalars.count, condition(scalars[index]) { text.append(scalars[index]); index += 1 }
            return String(text)
        }
        part.dispositionType = read { $0 != ";" }.trimmingCharacters(in: .whitespaces)
        while index < scalars.count {
            index += 1  // ";"
            _ = read { $0 == " " }
            let key = read { $0 != "=" }.lowercased()
            guard index < scalars.count, scalars[index] == "=" else { throw ParseError(description: "parameter without =") }
            index += 1
            guard index < scalars.count, scalars[index] == "\"" else { throw ParseError(description: "unquoted parameter \(key)") }
            index += 1
            let quoted = read { $0 != "\"" }
            guard index < scalars.count else { throw ParseError(description: "unterminated quote in \(visible(value))") }
            index += 1
            switch key {
            case "name": part.name = quoted
            case "filename": part.fileName = quoted
            default: throw ParseError(description: "unexpected parameter \(key)")
            }
            _ = read { $0 == " " }
            guard index == scalars.count || scalars[index] == ";" else {
                throw ParseError(description: "text after a quoted value in \(visible(value))")
            }
        }
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard needle.count <= haystack.count, start <= haystack.count - needle.count else { return nil }
        var index = start
        let last = haystack.count - needle.count
        while index <= last {
            if haystack[index] == needle[0], haystack[index..<index + needle.count].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }
}
