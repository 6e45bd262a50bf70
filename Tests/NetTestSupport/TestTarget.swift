import Foundation
import NetCore

/// The tests' one configurable target: every requirement a stored property with a plain default
/// (`GET https://api.example.com/items`, no body, no extra header, success codes validated, a
/// sample `200`), so a test sets only what it is about. `name` is its description, so logs and
/// errors name it `TestTarget.<name>`.
public struct TestTarget: TargetType, CustomStringConvertible {
    /// What the target is called in logs and errors.
    public var name: String
    /// See ``TargetType/baseURL``.
    public var baseURL: URL
    /// See ``TargetType/path``.
    public var path: String
    /// See ``TargetType/method``.
    public var method: HTTPMethod
    /// See ``TargetType/content``.
    public var content: RequestContent
    /// See ``TargetType/headers``.
    public var headers: [String: String]
    /// See ``TargetType/timeout``.
    public var timeout: Duration?
    /// See ``TargetType/validation``.
    public var validation: Validation
    /// See ``TargetType/sampleResponse``.
    public var sampleResponse: SampleResponse

    /// A target with the given parts and the defaults above for the rest.
    public init(
        name: String = "sample",
        baseURL: URL = URL(string: "https://api.example.com")!,
        path: String = "items",
        method: HTTPMethod = .get,
        content: RequestContent = .plain,
        headers: [String: String] = [:],
        timeout: Duration? = nil,
        validation: Validation = .successCodes,
        sampleResponse: SampleResponse = SampleResponse(statusCode: 200)
    ) {
        self.name = name
        self.baseURL = baseURL
        self.path = path
        self.method = method
        self.content = content
        self.headers = headers
        self.timeout = timeout
        self.validation = validation
        self.sampleResponse = sampleResponse
    }

    public var description: String { name }
}
