import Foundation
import NetCore
import NetTestSupport
import Testing

/// Errors keep what they came from (`underlyingError`), decoding failures keep their response,
/// and `code` names the case without its values.
@Suite("Error causes and codes")
struct ErrorCauseTests {
    struct Offline: Error {}
    struct NoToken: Error {}
    struct User: Decodable { var id: Int }

    /// A plugin whose `prepare` throws.
    struct ThrowingPlugin: Plugin {
        func prepare(_ request: inout Request) async throws -> PrepareAction { throw NoToken() }
    }

    @Test("A stub's URLError comes back as URLSession's error would, with the URLError as its cause")
    func stubbedURLError() async throws {
        let target = TestTarget(sampleResponse: .failure(URLError(.notConnectedToInternet)))
        let error = try #require(await failure(of: target, on: Provider(transport: StubTransport())))
        #expect(error.code == .connectionFailed)
        #expect((error.underlyingError as? URLError)?.code == .notConnectedToInternet)
    }

    @Test("A stub's own error comes back as .transport with that very error as its cause")
    func stubbedCustomError() async throws {
        let target = TestTarget(sampleResponse: .failure(Offline()))
        let error = try #require(await failure(of: target, on: Provider(transport: StubTransport())))
        #expect(error.code == .transport)
        #expect(error.underlyingError is Offline)
    }

    @Test("A stub's NetworkError comes back unchanged")
    func stubbedNetworkError() async throws {
        let target = TestTarget(sampleResponse: .failure(.timedOut))
        let error = try #require(await failure(of: target, on: Provider(transport: StubTransport())))
        #expect(error.code == .timedOut)
        #expect(error.underlyingError == nil)
    }

    @Test("What a plugin throws is the cause of .pluginFailed")
    func pluginError() async throws {
        let provider = Provider<TestTarget>(transport: StubTransport(), plugins: [ThrowingPlugin()])
        let error = try #require(await failure(of: TestTarget(), on: provider))
        #expect(error.code == .pluginFailed)
        #expect(error.underlyingError is NoToken)
    }

    @Test("A decoding failure keeps the response that failed to decode and the DecodingError")
    func decodingKeepsResponse() async throws {
        let target = TestTarget(sampleResponse: SampleResponse(statusCode: 200, headers: ["X-Trace": "t1"], data: Data(#"{"id":"seven"}"#.utf8)))
        do {
            _ = try await Provider<TestTarget>(transport: StubTransport()).request(target, as: User.self)
            Issue.record("expected a decoding failure")
        } catch {
            #expect(error.code == .decodingFailed)
            #expect(error.response?.statusCode == 200)
            #expect(error.response?.headers["X-Trace"] == "t1")
            #expect(error.response?.string() == #"{"id":"seven"}"#)
            #expect(error.statusCode == 200)
            #expect(error.underlyingError is DecodingError)
        }
    }

    @Test("A missing key path is a decoding failure with the response and no DecodingError")
    func missingKeyPath() async throws {
        let target = TestTarget(sampleResponse: .json(#"{"data": {}}"#))
        do {
            _ = try await Provider<TestTarget>(transport: StubTransport()).request(target, as: User.self, atKeyPath: "data.user")
            Issue.record("expected a decoding failure")
        } catch {
            #expect(error.code == .decodingFailed)
            #expect(error.response != nil)
        }
    }

    @Test("A JSON body that cannot be encoded keeps the EncodingError")
    func encodingError() async throws {
        let target = TestTarget(method: .post, content: .json(["value": Double.nan]))
        let error = try #require(await failure(of: target, on: Provider(transport: StubTransport())))
        #expect(error.code == .encodingFailed)
        #expect(error.underlyingError is EncodingError)
    }

    @Test("Every code is distinct (each case's own code is checked by ErrorCaseListTests)")
    func codes() {
        #expect(Set(NetworkError.Code.allCases).count == NetworkError.Code.allCases.count)
        #expect(NetworkError.Code.allCases.map(\.rawValue).contains("unacceptableStatus"))
    }

    @Test("A cause never changes the description")
    func descriptionUnchanged() {
        #expect(NetworkError.transport(reason: "x", underlying: Offline()).description == NetworkError.transport(reason: "x").description)
    }
}
