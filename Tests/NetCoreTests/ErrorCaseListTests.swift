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
