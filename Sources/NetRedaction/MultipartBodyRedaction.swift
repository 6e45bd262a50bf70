import Foundation

/// Redacts `multipart/*` bodies part by part: the content of a part whose `Content-Disposition`
/// name is secret is replaced; delimiters, part headers and other parts are kept.
enum MultipartBodyRedaction {
    /// Hidden part contents longer than this are not collected as known secrets (a file, not a
    /// password).
    private static let maximumCollectedLength = 4096

    /// `body` with the contents of secret parts replaced by the placeholder, and the (text)
    /// contents it hid. A truncated body is redacted as far as it goes.
    static func redact(_ body: Data, boundary: String, rules: RedactionRules) -> (body: Data, hidden: [String]) {
        let bytes = [UInt8](body)
        let delimiter = Array("--\(boundary)".utf8)
        let positions = delimiterPositions(delimiter, in: bytes)
        guard let firstPosition = positions.first else { return (body, []) }
        var output = Array(bytes[..<firstPosition])
        output.reserveCapacity(bytes.count)
        var hidden: [String] = []
        var changed = false
        for (number, start) in positions.enumerated() {
            let next = number + 1 < positions.count ? positions[number + 1] : bytes.count
            let afterDelimiter = start + delimiter.count
            let isClose =
                afterDelimiter + 1 < bytes.count && bytes[afterDelimiter] == UInt8(ascii: "-")
                && bytes[afterDelimiter + 1] == UInt8(ascii: "-")
            guard !isClose, let contentStart = contentStart(in: bytes, from: afterDelimiter, before: next) else {
                output.append(contentsOf: bytes[start..<next])
                continue
            }
            let contentEnd = max(contentStart, next < bytes.count ? lineBreakStart(in: bytes, before: next) : next)
            let headers = String(decoding: bytes[afterDelimiter..<contentStart], as: UTF8.self)
            guard let name = dispositionName(headers), rules.redactsField(name) else {
                output.append(contentsOf: bytes[start..<next])
                continue
            }
            output.append(contentsOf: bytes[start..<contentStart])
            output.append(contentsOf: SecretRedactor.placeholder.utf8)
            output.append(contentsOf: bytes[contentEnd..<next])
            let content = bytes[contentStart..<contentEnd]
            if content.count <= maximumCollectedLength, let text = String(validating: content, as: UTF8.self) { hidden.append(text) }
            changed = true
        }
        return changed ? (Data(output), hidden) : (body, [])
    }

    /// Where each delimiter starts: at the body's start or right after a line feed.
    private static func delimiterPositions(_ delimiter: [UInt8], in bytes: [UInt8]) -> [Int] {
        guard let first = delimiter.first, delimiter.count <= bytes.count else { return [] }
        var positions: [Int] = []
        var index = 0
        while index <= bytes.count - delimiter.count {
            if bytes[index] == first, index == 0 || bytes[index - 1] == 0x0A,
                bytes[index..<index + delimiter.count].elementsEqual(delimiter)
            {
                positions.append(index)
                index += delimiter.count
            } else {
                index += 1
            }
        }
        return positions
    }

    /// The index after the blank line that ends a part's headers, or `nil` before `limit`.
    private static func contentStart(in bytes: [UInt8], from start: Int, before limit: Int) -> Int? {
        var index = start
        while index < limit {
            if bytes[index] == 0x0A {
                if index + 1 < limit, bytes[index + 1] == 0x0A { return index + 2 }
                if index + 2 < limit, bytes[index + 1] == 0x0D, bytes[index + 2] == 0x0A { return index + 3 }
            }
            index += 1
        }
        return nil
    }

    /// The start of the line break (CRLF or LF) that precedes the delimiter at `delimiter`.
    private static func lineBreakStart(in bytes: [UInt8], before delimiter: Int) -> Int {
        guard delimiter > 0, bytes[delimiter - 1] == 0x0A else { return delimiter }
        return delimiter >= 2 && bytes[delimiter - 2] == 0x0D ? delimiter - 2 : delimiter - 1
    }

    /// The `name` parameter of the part's `Content-Disposition` header.
    private static func dispositionName(_ headers: String) -> String? {
        for line in headers.split(whereSeparator: { $0 == "\r\n" || $0 == "\n" || $0 == "\r" }) {
            guard let colon = line.firstIndex(of: ":"),
                line[..<colon].trimmingCharacters(in: .whitespaces).lowercased() == "content-disposition"
            else { continue }
            return SecretRedactor.parameter("name", in: String(line[line.index(after: colon)...]))
        }
        return nil
    }
}
