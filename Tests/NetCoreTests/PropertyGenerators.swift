import NetTransportSupport
import Foundation
import NetCore
import Testing

// Hand-rolled property testing: a seeded PRNG, generators for awkward text and parameters, and a
// runner that reports the seed and the failing input. No package dependencies.

// MARK: - PRNG

/// SplitMix64: tiny, fast, and good enough to drive generators. The same seed always gives the
/// same sequence, so every failure is reproducible.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A value in `0..<bound`.
    mutating func below(_ bound: Int) -> Int { Int.random(in: 0..<bound, using: &self) }

    /// `true` with probability `percent` / 100.
    mutating func chance(_ percent: Int) -> Bool { below(100) < percent }

    /// One element of a non-empty array.
    mutating func pick<T>(_ options: [T]) -> T { options[below(options.count)] }
}

// MARK: - Runner

/// Seed and case count for every property; override with `NETKIT_PROPERTY_SEED` (decimal or
/// `0x` hex) and `NETKIT_PROPERTY_CASES` to reproduce a failure or search harder.
enum PropertySettings {
    static let seed: UInt64 = {
        guard let text = ProcessInfo.processInfo.environment["NETKIT_PROPERTY_SEED"] else { return 0x5EED_4E37_C0DE_2026 }
        let parsed = text.hasPrefix("0x") ? UInt64(text.dropFirst(2), radix: 16) : UInt64(text)
        return parsed ?? 0x5EED_4E37_C0DE_2026
    }()

    static let cases: Int = ProcessInfo.processInfo.environment["NETKIT_PROPERTY_CASES"].flatMap(Int.init) ?? 500

    /// The seed of case `index` of the property named `property`: each case can be replayed alone.
    static func caseSeed(_ property: String, _ index: Int) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325  // FNV-1a, so properties do not share inputs.
        for byte in property.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
        return (seed ^ hash) &+ UInt64(index) &* 0x9E37_79B9_7F4A_7C15
    }
}

/// Runs `check` on `cases` generated inputs. `check` returns `nil` when the property holds, or a
/// description of what differed. The first failure is recorded with the property name, the
/// seeds and the input, and the run stops there.
func forAll<Input>(
    _ property: String,
    cases: Int = PropertySettings.cases,
    generate: (inout SplitMix64) -> Input,
    describe: (Input) -> String = { String(reflecting: $0) },
    sourceLocation: SourceLocation = #_sourceLocation,
    check: (Input) async throws -> String?
) async throws {
    for index in 0..<cases {
        let seed = PropertySettings.caseSeed(property, index)
        var random = SplitMix64(seed: seed)
        let input = generate(&random)
        if let mismatch = try await check(input) {
            Issue.record(
                """
                property "\(property)" failed on case \(index) (NETKIT_PROPERTY_SEED=0x\(String(PropertySettings.seed, radix: 16)), \
                case seed 0x\(String(seed, radix: 16)))
                \(mismatch)
                input: \(describe(input))
                """,
                sourceLocation: sourceLocation
            )
            return
        }
    }
}

// MARK: - Text

/// Pieces of text that tend to break encoders, grouped by kind.
enum AwkwardText {
    static let reserved = "&=+?#/%[];:@!$'()*,".map(String.init)
    static let unreserved = "abcXYZ019-._~".map(String.init)
    static let whitespace = [" ", "  ", "\t", "\r", "\n", "\r\n", "\u{A0}", "\u{3000}"]
    static let controls = ["\u{0}", "\u{1}", "\u{7}", "\u{1B}", "\u{1F}", "\u{7F}", "\u{85}", "\u{9F}"]
    static let combining = ["e\u{301}", "\u{301}", "a\u{308}\u{301}\u{323}", "\u{1100}\u{1161}\u{11A8}", "Z\u{35C}\u{361}\u{489}"]
    static let emoji = ["👩‍👩‍👧‍👦", "👍🏽", "🇯🇵", "🏳️‍🌈", "❤️", "🧑🏿‍🚀", "😀", "#️⃣"]
    static let rightToLeft = ["שלום", "مرحبا", "\u{200F}", "\u{202E}abc\u{202C}", "\u{200E}", "עברית123"]
    static let other = ["é", "ß", "日本語", "𝄞", "\u{FEFF}", "\u{FFFD}", "\u{FFFF}", "\u{10FFFF}", "\u{200B}", "Ω", "İ"]
    static let quoting = ["\"", "\\", "`", "<", ">", "{", "}", "|", "^", "\"\u{301}", "\u{301}\""]
    static let groups = [reserved, unreserved, whitespace, controls, combining, emoji, rightToLeft, other, quoting]

    /// Every piece that contains no `%`.
    static let withoutPercent = groups.flatMap { $0 }.filter { !$0.contains("%") }

    /// A string of 0-12 pieces (one time in a hundred 100-1,000), mixing every kind of awkward text.
    static func string(_ random: inout SplitMix64, pieces: [String]? = nil, allowLong: Bool = true) -> String {
        let count = allowLong && random.chance(1) ? 100 + random.below(900) : random.below(13)
        var text = ""
        for _ in 0..<count {
            text += pieces.map { random.pick($0) } ?? random.pick(random.pick(groups))
        }
        return text
    }

    /// Random bytes biased towards CR, LF, `-` and multipart-looking runs.
    static func bytes(_ random: inout SplitMix64, maxCount: Int) -> Data {
        let count = random.chance(5) ? maxCount : random.below(maxCount / 8 + 1)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count + 64)
        let tricky = ["\r\n", "--", "\r\n--", "--netkit-", "\r\n\r\n", "Content-Disposition: form-data; name=\"x\"\r\n", "\u{0}"].map { Array($0.utf8) }
        while bytes.count < count {
            let word = random.next()
            if word & 0xF == 0 {
                bytes += tricky[Int(word >> 4) % tricky.count]
            } else {
                withUnsafeBytes(of: word) { bytes += $0 }  // eight random bytes at once
            }
        }
        return Data(bytes.prefix(count))
    }
}

// MARK: - Parameters

/// Random ``Parameters`` up to a few levels deep, with repeated and empty keys.
enum ParameterGenerator {
    static func parameters(_ random: inout SplitMix64, depth: Int = 0, usedKeys: inout [String]) -> Parameters {
        let count = depth == 0 ? random.below(9) : random.below(5)
        var pairs: [(String, ParameterValue)] = []
        for _ in 0..<count {
            let key: String
            if !usedKeys.isEmpty, random.chance(15) {
                key = random.pick(usedKeys)  // keys may repeat
            } else if random.chance(8) {
                key = ""
            } else {
                key = AwkwardText.string(&random, allowLong: depth == 0)
                usedKeys.append(key)
            }
            pairs.append((key, value(&random, depth: depth, usedKeys: &usedKeys)))
        }
        return Parameters(pairs)
    }

    static func value(_ random: inout SplitMix64, depth: Int, usedKeys: inout [String]) -> ParameterValue {
        let nests = depth < 5 && random.chance(depth == 0 ? 35 : 25)
        if nests {
            if random.chance(50) {
                let count = random.below(5)
                return .array((0..<count).map { _ in value(&random, depth: depth + 1, usedKeys: &usedKeys) })
            }
            return .dictionary(parameters(&random, depth: depth + 1, usedKeys: &usedKeys))
        }
        switch random.below(6) {
        case 0, 1: return .string(AwkwardText.string(&random))
        case 2: return .int(random.pick([0, 1, -1, Int.max, Int.min, Int(Int32.max)]) &+ (random.chance(50) ? 0 : random.below(1000) - 500))
        case 3: return .double(double(&random))
        case 4: return .bool(random.chance(50))
        default: return .null
        }
    }

    static func double(_ random: inout SplitMix64) -> Double {
        switch random.below(8) {
        case 0: return random.pick([0.0, -0.0, 1.0, -1.0, 1e15, -1e15, 1e15 - 1, 999_999_999_999_999.0, 1e16, 0.1, 1e-300, .leastNonzeroMagnitude])
        case 1: return random.pick([.nan, .infinity, -.infinity, .greatestFiniteMagnitude, .leastNormalMagnitude, .ulpOfOne])
        case 2: return Double(random.below(2_000_001) - 1_000_000)  // integral
        case 3: return Double(bitPattern: random.next())  // anything, NaN payloads included
        default: return Double.random(in: -1e6...1e6, using: &random)
        }
    }
}

// MARK: - Reading bodies

/// Reads a whole body with ``BodyStreamReader`` through a buffer of `bufferSize` bytes.
func readBody(_ body: RequestBody, bufferSize: Int) throws -> Data {
    let reader = BodyStreamReader(body)
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: bufferSize, alignment: 1)
    defer { buffer.deallocate() }
    var output = Data()
    while true {
        let count = try reader.read(into: buffer)
        if count == 0 { return output }
        output.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
    }
}

/// Whether two strings hold the same UTF-8 bytes. `==` on `String` compares canonical
/// equivalence, so `"é"` equals `"e\u{301}"`; an encoder that normalised text would slip by.
func sameBytes(_ lhs: String?, _ rhs: String?) -> Bool {
    switch (lhs, rhs) {
    case let (lhs?, rhs?): lhs.utf8.elementsEqual(rhs.utf8)
    case (nil, nil): true
    default: false
    }
}

/// Shows text with every non-printable-ASCII scalar escaped, so failures are readable.
func visible(_ text: String) -> String {
    var output = "\""
    for scalar in text.unicodeScalars {
        if scalar.isASCII, scalar.value >= 0x20, scalar.value < 0x7F, scalar != "\"", scalar != "\\" {
            output.unicodeScalars.append(scalar)
        } else {
            output += "\\u{\(String(scalar.value, radix: 16))}"
        }
    }
    return output + "\""
}
