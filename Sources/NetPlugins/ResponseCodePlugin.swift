import NetToolbox
import Foundation
import NetCore

/// Checks a business code inside successful JSON responses, for APIs that always answer 200 with
/// an envelope such as `{"code": 0, "message": "ok", "data": {…}}`.
///
/// ```swift
/// let codes = ResponseCodePlugin()                                  // "code" must be 0
/// let custom = ResponseCodePlugin(codeKeyPath: "status.code", acceptedCodes: ["200", "OK"],
///                                 messageKeyPath: "status.msg")
/// do { _ = try await provider.request(.profile) }
/// catch .businessCode(let code, let message, let response) { … }
/// ```
///
/// Runs in `process`, on successful results only. A code not in `acceptedCodes` turns the result
/// into ``/NetCore/NetworkError/businessCode(code:message:response:)`` with the code (as text: `0`, `"E42"`),
/// the message when the body has one, and the whole response. Numbers, strings and booleans are
/// compared by their text (`0` and `"0"` are the same code). Bodies that are not JSON objects, or
/// have no code at the key path, pass unchanged unless `requiresCode` is set.
public struct ResponseCodePlugin: Plugin {
    /// Dot-separated key path of the code, such as `"code"` or `"meta.status"`.
    package let codeKeyPath: String
    /// Codes that mean success, as text.
    package let acceptedCodes: Set<String>
    /// Dot-separated key path of a human-readable message, or `nil`.
    package let messageKeyPath: String?
    /// Whether a JSON response without a code is rejected (as code `"missing"`). Default `false`.
    package let requiresCode: Bool
    private let appliesTo: @Sendable (Request) -> Bool

    /// Creates the plugin.
    /// - Parameters:
    ///   - codeKeyPath: Where the code is. Default `"code"`.
    ///   - acceptedCodes: Codes that mean success. Default `["0"]`.
    ///   - messageKeyPath: Where the message is. Default `"message"`.
    ///   - requiresCode: Reject JSON responses without a code. Default `false`.
    ///   - appliesTo: Which requests to check. Default: all.
    public init(
        codeKeyPath: String = "code", acceptedCodes: Set<String> = ["0"], messageKeyPath: String? = "message",
        requiresCode: Bool = false, appliesTo: @escaping @Sendable (Request) -> Bool = { _ in true }
    ) {
        self.codeKeyPath = codeKeyPath
        self.acceptedCodes = acceptedCodes
        self.messageKeyPath = messageKeyPath
        self.requiresCode = requiresCode
        self.appliesTo = appliesTo
    }

    public func process(_ result: Result<Response, NetworkError>, for request: Request) async -> Result<Response, NetworkError> {
        guard case .success(let response) = result, appliesTo(request) else { return result }
        guard let root = Self.jsonObject(response.data) else { return result }
        guard let code = JSONKeyPath(codeKeyPath).value(in: root).flatMap(Self.text) else {
            return requiresCode ? .failure(.businessCode(code: "missing", message: "no code at \"\(codeKeyPath)\"", response: response)) : result
        }
        guard !acceptedCodes.contains(code) else { return result }
        let message = messageKeyPath.flatMap { JSONKeyPath($0).value(in: root) }.flatMap(Self.text)
        return .failure(.businessCode(code: code, message: message, response: response))
    }

    private static func jsonObject(_ data: Data) -> [String: Any]? {
        guard JSONWhitespace.firstSignificantByte(of: data) == UInt8(ascii: "{") else {
            return nil
        }
        return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
    }

    /// Codes as text: strings as they are, integral numbers without a fraction, booleans as
    /// `true`/`false` (JSONSerialization reports booleans as `NSNumber`s of type "c").
    private static func text(_ value: Any) -> String? {
        if let string = value as? String { return string }
        guard let number = value as? NSNumber else { return nil }
        if String(cString: number.objCType) == "c" { return number.boolValue ? "true" : "false" }
        let double = number.doubleValue
        if double.rounded() == double, abs(double) < 1e15 { return String(Int64(double)) }
        return number.stringValue
    }
}
