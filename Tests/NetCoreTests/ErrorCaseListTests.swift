import Foundation
import NetCore
import NetTestSupport
import Testing

/// `NetworkError`'s cases are listed once, in the enum; `code` and the cause slot are exhaustive
/// switches the compiler checks, and this suite walks `Code.allCases` so that a new case cannot
/// miss its code, its cause or its message.
@Suite("Error case list")
struct ErrorCaseListTests {
    struct Cause: Error {}

    /// A request and a response for the cases that carry one.
    static let response = Response(
        statusCode: 500, request: Request(url: URL(string: "https://api.example.com/items")!, target: TestTarget()))

    /// One error per code, built with `cause` where the case has room for one. No `default`: a
    /// new code does not compile until it has a sample here.
    static func sample(_ code: NetworkError.Code, cause: (any Error)?) -> NetworkError {
        switch code {
        case .invalidURL: .invalidURL(target: "T", reason: "r")
        case .encodingFailed: .encodingFailed(target: "T", reason: "r", underlying: cause)
        case .unreadableFile: .unreadableFile(target: "T", url: URL(fileURLWithPath: "/nope"), reason: "r", underlying: cause)
        case .invalidRequest: .invalidRequest(target: "T", reason: "r")
        case .connectionFailed: .connectionFailed(host: "h", reason: "r", underlying: cause)
        case .proxyFailed: .proxyFailed(proxy: "p", reason: "r", underlying: cause)
        case .dnsFailure: .dnsFailure(host: "h", underlying: cause)
        case .timedOut: .timedOut
        case .tlsFailure: .tlsFailure(host: "h", reason: "r", underlying: cause)
        case .pinningFailed: .pinningFailed(host: "h")
        case .tlsPolicyUnsupported: .tlsPolicyUnsupported(transport: "X", host: "h")
        case .connectionLost: .connectionLost(reason: "r", underlying: cause)
        case .truncatedResponse: .truncatedResponse(expected: 2, received: 1)
        case .invalidResponse: .invalidResponse(reason: "r", underlying: cause)
        case .redirectRefused: .redirectRefused(reason: "r")
        case .responseTooLarge: .responseTooLarge(limit: 1)
        case .fileSystem: .fileSystem(reason: "r", underlying: cause)
        case .transport: .transport(reason: "r", underlying: cause)
        case .unacceptableStatus: .unacceptableStatus(response)
        case .unacceptableContentType: .unacceptableContentType(response, accepted: ["application/json"])
        case .decodingFailed: .decodingFailed(type: "U", keyPath: nil, reason: "r", bodyExcerpt: "", response: response, underlying: cause)
        case .businessCode: .businessCode(code: "42", message: nil, response: response)
        case .cancelled: .cancelled
        case .stopped: .stopped(plugin: "P", reason: "r")
        case .noCachedResponse: .noCachedResponse
        case .pluginFailed: .pluginFailed(plugin: "P", reason: "r", underlying: cause)
        }
    }

    @Test("Every code names the case it was read from", arguments: NetworkError.Code.allCases)
    func codeRoundTrips(code: NetworkError.Code) {
        #expect(Self.sample(code, cause: nil).code == code)
        #expect(Self.sample(code, cause: Cause()).code == code)
    }

    /// Whether the case has an `underlying` value, read from the case itself (not from a list).
    static func hasCauseField(_ error: NetworkError) -> Bool {
        guard let payload = Mirror(reflecting: error).children.first?.value else { return false }
        return Mirror(reflecting: payload).children.contains { $0.label == "underlying" }
    }

    @Test("Exactly the cases with an underlying value give a cause back and take one", arguments: NetworkError.Code.allCases)
    func causeIsKept(code: NetworkError.Code) {
        let bare = Self.sample(code, cause: nil)
        let caused = Self.sample(code, cause: Cause())
        let hasField = Self.hasCauseField(bare)
        #expect(bare.underlyingError == nil)
        #expect((caused.underlyingError is Cause) == hasField, "\(code): underlyingError misses the case's cause")
        #expect((bare.causedBy(Cause()).underlyingError is Cause) == hasField, "\(code): causedBy misses the case's cause")
        #expect(caused.description == bare.description, "a cause never changes the message")
    }

    @Test("causedBy fills an empty cause slot once and never replaces a cause", arguments: NetworkError.Code.allCases)
    func causedByFillsOnce(code: NetworkError.Code) {
        struct Other: Error {}
        let filled = Self.sample(code, cause: nil).causedBy(Cause())
        #expect(filled.code == code)
        #expect(!(filled.causedBy(Other()).underlyingError is Other))
    }
}

/// The name of an enum value's case, as `print` shows it for an enum without a description: the
/// runtime call behind `Mirror` and `print` (exported by the Swift runtime, its ABI stable).
@_silgen_name("swift_EnumCaseName")
private func runtimeCaseName<T>(_ value: T) -> UnsafePointer<CChar>?

/// The number of cases of an enum type, read from its type descriptor (the layout of Swift's
/// stable ABI, docs/ABI/TypeMetadata.rst: the descriptor's `NumPayloadCasesAndPayloadSizeOffset`,
/// low 24 bits, and `NumEmptyCases`); `nil` when the metadata is not an enum's or not `name`'s.
private func caseCount(of type: Any.Type, named name: String) -> Int? {
    let metadata = unsafeBitCast(type, to: UnsafeRawPointer.self)
    guard metadata.load(as: UInt.self) == 0x201 else { return nil }  // MetadataKind::Enum
    let descriptor = metadata.load(fromByteOffset: MemoryLayout<UInt>.size, as: UnsafeRawPointer.self)
    let nameField = descriptor + 8
    let typeName = String(cString: (nameField + Int(nameField.load(as: Int32.self))).assumingMemoryBound(to: CChar.self))
    guard typeName == name else { return nil }
    let payloadCases = Int(descriptor.load(fromByteOffset: 20, as: UInt32.self) & 0x00FF_FFFF)
    let emptyCases = Int(descriptor.load(fromByteOffset: 24, as: UInt32.self))
    return payloadCases + emptyCases
}

extension ErrorCaseListTests {
    /// The case's name: the label of the payload a `Mirror` shows, else (no payload) the runtime's.
    static func caseName(_ error: NetworkError) -> String? {
        if let label = Mirror(reflecting: error).children.first?.label { return label }
        return runtimeCaseName(error).map { String(cString: $0) }
    }

    @Test("Each code's sample is the case of the same name", arguments: NetworkError.Code.allCases)
    func sampleIsTheCaseOfItsCode(code: NetworkError.Code) {
        #expect(Self.caseName(Self.sample(code, cause: nil)) == code.rawValue)
        #expect(Self.caseName(Self.sample(code, cause: Cause())) == code.rawValue)
    }

    /// With one code per case and each code's sample the case of its name (above), the samples
    /// cover every case: a new case with no code of its own (mapped in `code` to an old one)
    /// fails here, so its cause slot and message cannot go untested.
    @Test("NetworkError has exactly one case per code")
    func oneCasePerCode() {
        let count = caseCount(of: NetworkError.self, named: "NetworkError")
        #expect(count != nil, "the enum's type descriptor could not be read")
        #expect(count == NetworkError.Code.allCases.count)
    }
}
