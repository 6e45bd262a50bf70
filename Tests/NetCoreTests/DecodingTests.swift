import Foundation
import NetCore
import NetTestSupport
import Testing

@Suite("Decoding responses")
struct DecodingTests {
    struct Args: Decodable, Equatable { let q: String; let page: String }
    struct User: Decodable, Equatable { let name: String; let age: Int; let admin: Bool }
    struct Envelope: Decodable { let args: Args }

    static let body = #"""
        {"args": {"q": "swift", "page": "2"},
         "data": {"user": {"name": "Ada", "age": 36, "admin": true}, "count": 3, "label": "x", "ratio": 0.25, "ok": false,
                  "list": [1, 2, 3]}}
        """#

    let provider = Provider<TestTarget>(transport: StubTransport())
    let target = TestTarget(name: "echo", sampleResponse: .json(Self.body))

    @Test("request(_:as:) decodes the whole body")
    func decodeWholeBody() async throws {
        let envelope = try await provider.request(target, as: Envelope.self)
        #expect(envelope.args == Args(q: "swift", page: "2"))
    }

    @Test("atKeyPath: \"args\" decodes the value under that key")
    func decodeAtKey() async throws {
        let args = try await provider.request(target, as: Args.self, atKeyPath: "args")
        #expect(args == Args(q: "swift", page: "2"))
    }

    @Test("a nested key path such as \"data.user\" walks objects")
    func decodeNestedKeyPath() async throws {
        let user = try await provider.request(target, as: User.self, atKeyPath: "data.user")
        #expect(user == User(name: "Ada", age: 36, admin: true))
    }

    @Test("a key path may end at a scalar or an array")
    func decodeScalarsAtKeyPath() async throws {
        #expect(try await provider.request(target, as: Int.self, atKeyPath: "data.count") == 3)
        #expect(try await provider.request(target, as: String.self, atKeyPath: "data.label") == "x")
        #expect(try await provider.request(target, as: Double.self, atKeyPath: "data.ratio") == 0.25)
        #expect(try await provider.request(target, as: Bool.self, atKeyPath: "data.ok") == false)
        #expect(try await provider.request(target, as: [Int].self, atKeyPath: "data.list") == [1, 2, 3])
    }

    @Test("a missing key path is decodingFailed with the key path, the missing key and a body excerpt")
    func missingKeyPath() async throws {
        do {
            _ = try await provider.request(target, as: User.self, atKeyPath: "data.account")
            Issue.record("expected decodingFailed")
        } catch {
            guard case .decodingFailed(let type, let keyPath, let reason, let excerpt, _, _) = error else {
                Issue.record("expected decodingFailed, got \(error)")
                return
            }
            #expect(type == "User")
            #expect(keyPath == "data.account")
            #expect(reason.contains("account"))
            #expect(excerpt.hasPrefix(#"{"args": {"q": "swift""#))
            #expect(error.description.contains("data.account"))
        }
    }

    @Test("a type mismatch names the expected type and where it was found")
    func typeMismatch() async throws {
        struct Counter: Decodable { let count: Int }
        let target = TestTarget(sampleResponse: .json(#"{"count": "three"}"#))
        do {
            _ = try await provider.request(target, as: Counter.self)
            Issue.record("expected decodingFailed")
        } catch {
            guard case .decodingFailed(_, let keyPath, let reason, let excerpt, _, _) = error else {
                Issue.record("expected decodingFailed, got \(error)")
                return
            }
            #expect(keyPath == nil)
            #expect(reason.contains("Int"), "\(reason)")
            #expect(reason.contains("count"), "\(reason)")
            #expect(excerpt == #"{"count": "three"}"#)
            #expect(error.description.contains("Counter"))
        }
    }

    @Test("a body that is not JSON is decodingFailed with its start, truncated to 200 characters")
    func notJSON() async throws {
        let html = "<html>" + String(repeating: "x", count: 500) + "</html>"
        let target = TestTarget(sampleResponse: SampleResponse(data: Data(html.utf8)))
        do {
            _ = try await provider.request(target, as: Args.self, atKeyPath: "args")
            Issue.record("expected decodingFailed")
        } catch {
            guard case .decodingFailed(_, _, _, let excerpt, _, _) = error else {
                Issue.record("expected decodingFailed, got \(error)")
                return
            }
            #expect(excerpt.hasPrefix("<html>xxx"))
            #expect(excerpt.count <= 201)
        }
    }

    @Test("Response.json() and string() read the body")
    func jsonAndString() async throws {
        let response = try await provider.request(target)
        #expect(response.string()?.hasPrefix("{\"args\"") == true)
        let object = try #require(try response.json() as? [String: Any])
        #expect((object["args"] as? [String: Any])?["q"] as? String == "swift")
    }

    @Test("a failed request throws its NetworkError, not a decoding error")
    func failureBeforeDecoding() async throws {
        do {
            _ = try await provider.request(TestTarget(sampleResponse: .json("{}", statusCode: 500)), as: Args.self)
            Issue.record("expected a failure")
        } catch {
            #expect(error.caseName == "unacceptableStatus")
        }
    }
}
