import Foundation
import NetCore
import NetTestSupport
import Testing

/// The provider remembers joined base URLs and paths and parsed URLs; repeated and varied
/// requests must still get exactly the URL they ask for.
@Suite("Repeated requests build the right URLs")
struct RepeatedURLTests {
    private let provider = Provider<TestTarget>(transport: StubTransport())

    private func url(_ target: TestTarget) async throws -> String {
        try await provider.request(target).request.url.absoluteString
    }

    @Test func theSamePathWithDifferentQueriesKeepsEachQuery() async throws {
        for page in 1...3 {
            for _ in 0..<2 {
                #expect(try await url(TestTarget(content: .query(["page": page]))) == "https://api.example.com/items?page=\(page)")
            }
        }
    }

    @Test func aBaseURLQueryComesFirstEveryTime() async throws {
        let base = URL(string: "https://api.example.com/v1?key=abc")!
        for _ in 0..<3 {
            #expect(try await url(TestTarget(baseURL: base, content: .query(["q": "x"]))) == "https://api.example.com/v1/items?key=abc&q=x")
            #expect(try await url(TestTarget(baseURL: base)) == "https://api.example.com/v1/items?key=abc")
        }
    }

    @Test func thousandsOfDistinctURLsStayCorrectPastTheMemoBound() async throws {
        for index in 0..<1_500 {
            let target = TestTarget(path: "items/\(index)", content: .query(["n": index]))
            #expect(try await url(target) == "https://api.example.com/items/\(index)?n=\(index)")
        }
        #expect(try await url(TestTarget(path: "items/7", content: .query(["n": 7]))) == "https://api.example.com/items/7?n=7")
    }

    @Test func aRepeatedInvalidPathNamesTheTargetThatSentIt() async throws {
        for name in ["first", "second"] {
            do {
                _ = try await provider.request(TestTarget(name: name, path: "bad%zz"))
                Issue.record("expected invalidURL")
            } catch {
                guard case .invalidURL(let target, _) = error else {
                    Issue.record("expected invalidURL, got \(error)")
                    continue
                }
                #expect(target == "TestTarget.\(name)")
            }
        }
    }
}
