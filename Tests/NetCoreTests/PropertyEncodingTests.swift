import NetToolbox
import Foundation
import NetCore
import NetTestSupport
import Testing

/// Property tests for query and form encoding: whatever ``ParameterEncoding`` writes, a plain
/// `application/x-www-form-urlencoded` reader gets back the same key paths and values.
@Suite("Property: query and form encoding")
struct PropertyEncodingTests {
    /// One array style and bool style, named for test output.
    struct Style: Sendable, CustomTestStringConvertible {
        let encoding: ParameterEncoding
        var testDescription: String { "\(encoding.arrayStyle)/\(encoding.boolStyle)" }
    }

    static let styles: [Style] = [ParameterEncoding.ArrayStyle.brackets, .repeatedKeys, .indexed].flatMap { arrayStyle in
        [ParameterEncoding.BoolStyle.literal, .numeric].map { Style(encoding: ParameterEncoding(arrayStyle: arrayStyle, boolStyle: $0)) }
    }
    static let encodings = styles.map(\.encoding)
    /// Cases per style, so each property still runs about `PropertySettings.cases` cases in all.
    static let casesPerStyle = max(1, PropertySettings.cases / 5)

    @Test("encoded parameters decode back to their flattened key paths and values, in order", arguments: styles)
    func encodedParametersDecodeBack(style: Style) async throws {
        let encoding = style.encoding
        try await forAll("parameters round trip \(style.testDescription)", cases: Self.casesPerStyle, generate: Self.parameters, describe: describeParameters) {
            parameters in
            let encoded = encoding.encode(parameters)
            let expected = FormExpectation.pairs(parameters, encoding: encoding)
            guard let decoded = FormReader.pairs(encoded) else {
                return "the output is not valid form encoding: \(encoded)"
            }
            // "" is both "no pairs" and one key-less, value-less pair: the format cannot tell.
            if encoded.isEmpty, expected.count == 1, expected[0].key.isEmpty, expected[0].value == .none { return nil }
            guard decoded.count == expected.count else {
                return
                    "expected \(expected.count) pairs, decoded \(decoded.count) from \(encoded)\nexpected: \(expected)\ndecoded: \(decoded.map { ($0.key, $0.value.map(visible)) })"
            }
            for (index, (pair, want)) in zip(decoded, expected).enumerated() {
                if let problem = want.mismatch(key: pair.key, value: pair.value) {
                    return "pair \(index): \(problem)\nencoded: \(encoded)"
                }
            }
            return nil
        }
    }

    @Test("encoded parameters contain only unreserved characters, %XX escapes, & and =", arguments: styles)
    func encodedParametersUseOnlySafeCharacters(style: Style) async throws {
        let encoding = style.encoding
        try await forAll("parameters charset \(style.testDescription)", cases: Self.casesPerStyle, generate: Self.parameters, describe: describeParameters) {
            parameters in
            let encoded = encoding.encode(parameters)
            return FormReader.unsafeCharacter(in: encoded, allowing: "&=").map { "\($0) in \(encoded)" }
        }
    }

    @Test("the same parameters always encode to the same bytes", arguments: styles)
    func encodingIsDeterministic(style: Style) async throws {
        let encoding = style.encoding
        try await forAll("parameters determinism \(style.testDescription)", cases: Self.casesPerStyle, generate: Self.parameters, describe: describeParameters)
        { parameters in
            let first = encoding.encode(parameters)
            let rebuilt = Parameters(parameters.elements.map { ($0.key, $0.value) })
            let again = encoding.encode(rebuilt)
            let copyEncoding = ParameterEncoding(arrayStyle: encoding.arrayStyle, boolStyle: encoding.boolStyle)
            let third = copyEncoding.encode(parameters)
            return sameBytes(first, again) && sameBytes(again, third) ? nil : "encodings differ:\n\(first)\n\(again)\n\(third)"
        }
    }

    @Test("percent-decoding a percent-encoded string gives the string back")
    func percentEncodingRoundTrips() async throws {
        try await forAll("percent round trip", generate: { AwkwardText.string(&$0) }, describe: visible) { text in
            let encoded = PercentEncoding.encode(text)
            if let problem = FormReader.unsafeCharacter(in: encoded, allowing: "") { return "\(problem) in \(encoded)" }
            guard sameBytes(PercentEncoding.decode(encoded), text) else {
                return "decode gave \(PercentEncoding.decode(encoded).map(visible) ?? "nil") for \(encoded)"
            }
            guard sameBytes(PercentEncoding.decode(encoded, plusAsSpace: true), text) else {
                return "decode(plusAsSpace:) gave \(PercentEncoding.decode(encoded, plusAsSpace: true).map(visible) ?? "nil") for \(encoded)"
            }
            return nil
        }
    }

    @Test("unreserved text is left exactly as it is")
    func unreservedTextIsUntouched() async throws {
        try await forAll("percent unreserved", generate: { AwkwardText.string(&$0, pieces: AwkwardText.unreserved) }, describe: visible) { text in
            sameBytes(PercentEncoding.encode(text), text) ? nil : "encoded to \(PercentEncoding.encode(text))"
        }
    }

    @Test("a malformed escape or non-UTF-8 bytes make percent-decoding fail")
    func malformedEscapesDoNotDecode() async throws {
        try await forAll(
            "percent malformed",
            generate: { random in
                let encoded = PercentEncoding.encode(AwkwardText.string(&random, allowLong: false))
                let bad = random.pick(["%", "%4", "%G1", "%1G", "%%", "% 1", "%-1", "%FF", "%C3%28", "%ED%A0%80"])
                // An unfinished escape goes last, where no following text can complete it.
                let cut = bad.count < 3 ? encoded.count : random.below(encoded.count + 1)
                // Cut only between escapes so the inserted text is the only malformed part.
                let prefix = String(encoded.prefix(cut))
                let safePrefix =
                    prefix.hasSuffix("%")
                    ? String(prefix.dropLast())
                    : prefix.dropLast().hasSuffix("%") ? String(prefix.dropLast(2)) : prefix
                return safePrefix + bad + encoded.dropFirst(safePrefix.count)
            }, describe: visible
        ) { text in
            PercentEncoding.decode(text).map { "decoded to \(visible($0))" }
        }
    }

    @Test("query and form content reach the transport encoded exactly as ParameterEncoding writes them")
    func queryAndFormReachTheTransport() async throws {
        try await forAll(
            "provider query and form", cases: PropertySettings.cases / 2,
            generate: { random in
                var used: [String] = []
                let query = ParameterGenerator.parameters(&random, usedKeys: &used)
                let form = ParameterGenerator.parameters(&random, usedKeys: &used)
                return (query, form, random.pick(Self.encodings))
            }, describe: { "query \(describeParameters($0.0))\nform \(describeParameters($0.1))\nencoding \($0.2)" }
        ) { query, form, encoding in
            let target = TestTarget(method: .post, content: .withQuery(.form(form), query))
            let request = try await sentRequest(for: target, configuration: ProviderConfiguration(parameterEncoding: encoding))
            let encodedQuery = encoding.encode(query)
            guard rawQuery(request.url) == (encodedQuery.isEmpty ? nil : encodedQuery) else {
                return "URL \(request.url.absoluteString) does not carry the query \(encodedQuery)"
            }
            guard bodyText(request) == encoding.encode(form) else {
                return "body \(bodyText(request) ?? "nil") is not \(encoding.encode(form))"
            }
            let contentType = request.headers["Content-Type"]
            return contentType == "application/x-www-form-urlencoded; charset=utf-8" ? nil : "Content-Type \(contentType ?? "nil")"
        }
    }

    static func parameters(_ random: inout SplitMix64) -> Parameters {
        var used: [String] = []
        return ParameterGenerator.parameters(&random, usedKeys: &used)
    }
}

/// Parameters with every string made visible.
func describeParameters(_ parameters: Parameters) -> String {
    func text(of value: ParameterValue) -> String {
        switch value {
        case .string(let text): visible(text)
        case .int(let int): "\(int)"
        case .double(let double): "\(double) (bits 0x\(String(double.bitPattern, radix: 16)))"
        case .bool(let bool): "\(bool)"
        case .null: "null"
        case .array(let values): "[" + values.map(text(of:)).joined(separator: ", ") + "]"
        case .dictionary(let nested): describeParameters(nested)
        }
    }
    return "[" + parameters.map { "\(visible($0.key)): \(text(of: $0.value))" }.joined(separator: ", ") + "]"
}

// MARK: - Test-side reference reader and expectation

/// A minimal `application/x-www-form-urlencoded` reader, written from the format, not from NetCore.
enum FormReader {
    /// The `(key, value)` pairs of `encoded`; the value is `nil` for a pair without `=`. `nil` when
    /// an escape is malformed or not UTF-8.
    static func pairs(_ encoded: String) -> [(key: String, value: String?)]? {
        guard !encoded.isEmpty else { return [] }
        var result: [(key: String, value: String?)] = []
        for piece in encoded.split(separator: "&", omittingEmptySubsequences: false) {
            if let equals = piece.firstIndex(of: "=") {
                guard let key = PercentEncoding.decode(String(piece[..<equals])),
                    let value = PercentEncoding.decode(String(piece[piece.index(after: equals)...]))
                else { return nil }
                result.append((key, value))
            } else {
                guard let key = PercentEncoding.decode(String(piece)) else { return nil }
                result.append((key, nil))
            }
        }
        return result
    }

    /// A description of the first character that is neither unreserved, nor part of an upper-case
    /// `%XX` escape, nor in `allowing`; `nil` when there is none.
    static func unsafeCharacter(in encoded: String, allowing: String) -> String? {
        let bytes = Array(encoded.utf8)
        let hex = Set("0123456789ABCDEF".utf8)
        let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8)
        let allowed = Set(allowing.utf8)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < bytes.count, hex.contains(bytes[index + 1]), hex.contains(bytes[index + 2]) else {
                    return "a bad escape at byte \(index)"
                }
                index += 3
            } else {
                guard unreserved.contains(byte) || allowed.contains(byte) else {
                    return "byte 0x\(String(byte, radix: 16)) at \(index)"
                }
                index += 1
            }
        }
        return nil
    }
}

/// The pairs a form reader should see for some parameters, worked out from the documented rules:
/// nested dictionaries become `outer[inner]`; array items `key[]`, `key` or `key[i]` by style;
/// `null` is a bare key; empty arrays and dictionaries write nothing.
enum FormExpectation {
    struct Pair: CustomStringConvertible {
        enum Value: Equatable {
            case none
            case text(String)
            case number(Double)
        }

        var key: String
        var value: Value

        var description: String {
            switch value {
            case .none: "\(visible(key)) (no value)"
            case .text(let text): "\(visible(key))=\(visible(text))"
            case .number(let number): "\(visible(key))=\(number)"
            }
        }

        /// Why a decoded pair does not match this one, or `nil` when it does.
        func mismatch(key decodedKey: String, value decodedValue: String?) -> String? {
            guard sameBytes(decodedKey, key) else { return "key \(visible(decodedKey)), expected \(visible(key))" }
            switch value {
            case .none:
                return decodedValue.map { "value \(visible($0)) for \(visible(key)), expected no value" }
            case .text(let text):
                return sameBytes(decodedValue, text) ? nil : "value \(decodedValue.map(visible) ?? "none") for \(visible(key)), expected \(visible(text))"
            case .number(let number):
                guard let decodedValue else { return "no value for \(visible(key)), expected \(number)" }
                return Self.numberMismatch(decodedValue, number)
            }
        }

        /// Doubles must read back as the same number; whole numbers below 10^15 as plain integers.
        private static func numberMismatch(_ text: String, _ number: Double) -> String? {
            if number.isNaN {
                return text.lowercased().contains("nan") ? nil : "\(text) for NaN"
            }
            guard let parsed = Double(text), parsed == number else { return "\(text) does not read back as \(number)" }
            if number == number.rounded(), abs(number) < 1e15, Int64(text) == nil {
                return "the whole number \(number) is written \(text), not as an integer"
            }
            return nil
        }
    }

    static func pairs(_ parameters: Parameters, encoding: ParameterEncoding) -> [Pair] {
        var pairs: [Pair] = []
        for element in parameters { flatten(path: element.key, element.value, encoding, into: &pairs) }
        return pairs
    }

    private static func flatten(path: String, _ value: ParameterValue, _ encoding: ParameterEncoding, into pairs: inout [Pair]) {
        switch value {
        case .string(let text): pairs.append(Pair(key: path, value: .text(text)))
        case .int(let int): pairs.append(Pair(key: path, value: .text("\(int)")))
        case .double(let double): pairs.append(Pair(key: path, value: .number(double)))
        case .bool(let bool):
            let text =
                switch encoding.boolStyle {
                case .literal: bool ? "true" : "false"
                case .numeric: bool ? "1" : "0"
                }
            pairs.append(Pair(key: path, value: .text(text)))
        case .null: pairs.append(Pair(key: path, value: .none))
        case .dictionary(let nested):
            for element in nested { flatten(path: path + "[" + element.key + "]", element.value, encoding, into: &pairs) }
        case .array(let items):
            var index = 0
            for item in items {
                let itemPath =
                    switch encoding.arrayStyle {
                    case .brackets: path + "[]"
                    case .repeatedKeys: path
                    case .indexed: path + "[" + String(index) + "]"
                    }
                flatten(path: itemPath, item, encoding, into: &pairs)
                index += 1
            }
        }
    }
}
