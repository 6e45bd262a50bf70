import NetToolbox
import Foundation
import NetCore
import Testing

@testable import NetPlugins
import NetTestSupport

/// Basic and Digest answers to 401 challenges, unit by unit and through a provider.
@Suite("CredentialsPlugin")
struct CredentialsPluginTests {
    @Test("MD5 matches RFC 1321's test suite")
    func md5Vectors() {
        #expect(MD5.hex(Data()) == "d41d8cd98f00b204e9800998ecf8427e")
        #expect(MD5.hex(Data("abc".utf8)) == "900150983cd24fb0d6963f7d28e17f72")
        #expect(MD5.hex(Data("message digest".utf8)) == "f96b697d7cb7938d525a2f31aaf161d0")
        let long = String(repeating: "1234567890", count: 8)
        #expect(MD5.hex(Data(long.utf8)) == "57edf4a22be3c955ac49da2e2107b67a")
    }

    @Test("Digest answers match RFC 7616's example, for MD5 and SHA-256")
    func digestVectors() throws {
        for (algorithm, expected) in [
            ("MD5", "8ca523f5e9506fed4657c9700eebdbec"), ("SHA-256", "753927fa0e85d155564e2e272a28d1802ca10daf4496794697cf8db5856cb6c1"),
        ] {
            let header =
                #"Digest realm="http-auth@example.org", qop="auth, auth-int", algorithm=\#(algorithm), "#
                + #"nonce="7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v", opaque="FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS""#
            let challenge = try #require(AuthenticationChallenge.parse(header).first)
            let digest = try #require(DigestResponse(challenge: challenge, username: "Mufasa", password: "Circle of Life"))
            let value = digest.headerValue(
                method: "GET", uri: "/dir/index.html", count: 1, clientNonce: "f2/wE4q74E6zIJEtWaHKaf5wv/H5QzzpXusqGemxURZJ")
            #expect(value.contains(#"response="\#(expected)""#), "\(algorithm): \(value)")
            #expect(value.contains("nc=00000001"))
            #expect(value.contains(#"opaque="FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS""#))
        }
    }

    @Test("WWW-Authenticate with several challenges parses into each")
    func parsesChallenges() {
        let parsed = AuthenticationChallenge.parse(#"Negotiate, Basic realm="a, b", Digest realm="r", nonce="n\"x", stale=TRUE"#)
        #expect(parsed.map(\.scheme) == ["negotiate", "basic", "digest"])
        #expect(parsed[1].parameters["realm"] == "a, b")
        #expect(parsed[2].parameters["nonce"] == #"n"x"#)
        #expect(parsed[2].parameters["stale"] == "TRUE")
    }

    /// A server that wants Basic `user:pass`, counting what it saw.
    static func basicServer(_ seen: Locked<[String?]>) -> StubTransport {
        StubTransport(
            behavior: .custom { request in
                let authorization = request.headers["Authorization"]
                seen.withLock { $0.append(authorization) }
                let expected = "Basic " + Data("user:pass".utf8).base64EncodedString()
                if authorization == expected { return Response(statusCode: 200, request: request) }
                return Response(statusCode: 401, headers: ["WWW-Authenticate": #"Basic realm="api""#], request: request)
            })
    }

    @Test("A Basic challenge is answered once, and the origin is answered at once afterwards")
    func basicFlow() async throws {
        let seen = Locked<[String?]>([])
        let provider = Provider<TestTarget>(transport: Self.basicServer(seen), plugins: [CredentialsPlugin(user: "user", password: "pass")])
        #expect(try await provider.request(TestTarget()).statusCode == 200)
        #expect(try await provider.request(TestTarget(path: "/other")).statusCode == 200)
        let answer = "Basic " + Data("user:pass".utf8).base64EncodedString()
        #expect(seen.withLock { $0 } == [nil, answer, answer])
    }

    @Test("A wrong password ends with the 401 after one answer; no loop")
    func wrongPassword() async throws {
        let seen = Locked<[String?]>([])
        let provider = Provider<TestTarget>(
            transport: Self.basicServer(seen), plugins: [CredentialsPlugin(user: "user", password: "wrong")],
            configuration: ProviderConfiguration(maxAttempts: 5))
        let error = await #expect(throws: NetworkError.self) { try await provider.request(TestTarget()) }
        #expect(error?.statusCode == 401)
        #expect(seen.withLock { $0.count } == 2)
    }

    @Test("No credential for a target: its challenge is left alone; a caller's own Authorization is kept")
    func noCredential() async throws {
        let seen = Locked<[String?]>([])
        let none = Provider<TestTarget>(transport: Self.basicServer(seen), plugins: [CredentialsPlugin { _ in nil }])
        _ = await #expect(throws: NetworkError.self) { try await none.request(TestTarget()) }
        #expect(seen.withLock { $0.count } == 1)
        let own = Provider<TestTarget>(transport: Self.basicServer(seen), plugins: [CredentialsPlugin(user: "user", password: "pass")])
        _ = try? await own.request(TestTarget(headers: ["Authorization": "Bearer mine"]))
        #expect(seen.withLock { $0 }.dropFirst().allSatisfy { $0 == "Bearer mine" || $0 == "Basic dXNlcjpwYXNz" })
    }

    @Test("As in Moya, the credentials closure is asked once per request, across the challenge's retry and other plugins' retries")
    func closureAskedOncePerCall() async throws {
        let seen = Locked<[String?]>([])
        let asked = Counter()
        let credentials = CredentialsPlugin { _ in
            asked.increment()
            return .init(user: "user", password: "pass")
        }
        let provider = Provider<TestTarget>(transport: Self.basicServer(seen), plugins: [credentials])
        #expect(try await provider.request(TestTarget()).statusCode == 200)
        #expect(seen.withLock { $0.count } == 2)  // the challenge, then its answer
        #expect(asked.count == 1)
        #expect(try await provider.request(TestTarget()).statusCode == 200)
        #expect(asked.count == 2)  // a new call asks again

        // On an origin that has not challenged yet: a 503 retried by another plugin, then the
        // challenge and its answer. Three attempts, still one question for the call.
        let attempts = Counter()
        let flaky = StubTransport(
            behavior: .custom { request in
                if attempts.increment() == 1 { return Response(statusCode: 503, request: request) }
                return try await Self.basicServer(Locked([])).send(request)
            })
        let retried = Provider<TestTarget>(transport: flaky, plugins: [RetryPlugin(maxRetries: 2, baseDelay: .zero), credentials])
        #expect(try await retried.request(TestTarget(baseURL: URL(string: "https://other.example.com")!)).statusCode == 200)
        #expect(attempts.count == 3)
        #expect(asked.count == 3)
    }

    @Test("As in Moya, a nil credential is asked for once per request, not again on the 401 it leaves unanswered")
    func nilAnswerAskedOnce() async throws {
        let asked = Counter()
        let provider = Provider<TestTarget>(
            transport: Self.basicServer(Locked([])),
            plugins: [
                CredentialsPlugin { _ in
                    asked.increment()
                    return nil
                }
            ])
        let error = await #expect(throws: NetworkError.self) { try await provider.request(TestTarget()) }
        #expect(error?.statusCode == 401)
        #expect(asked.count == 1)
    }

    @Test("Credentials never reach another origin: a remembered challenge answers its own origin only")
    func perOrigin() async throws {
        let seen = Locked<[String?]>([])
        let provider = Provider<TestTarget>(transport: Self.basicServer(seen), plugins: [CredentialsPlugin(user: "user", password: "pass")])
        _ = try await provider.request(TestTarget())
        let other = TestTarget(baseURL: URL(string: "https://api.example.com:8443")!)
        _ = try? await provider.request(other)
        // The other port got no answer until it challenged itself.
        #expect(seen.withLock { $0 }[2] == nil)
    }

    @Test("A credential's descriptions never show the password")
    func credentialDescription() {
        let credential = CredentialsPlugin.Credential(user: "ann", password: "s3cret-pw")
        var dumped = ""
        dump(credential, to: &dumped)
        for text in [credential.description, credential.debugDescription, String(describing: credential), "\(credential)", dumped] {
            #expect(!text.contains("s3cret-pw"))
        }
    }
}

/// began/ended once per call, whatever the attempts and the outcome.
@Suite("NetworkActivityPlugin")
struct NetworkActivityPluginTests {
    @Test("One began and one ended per call, across retries, failures and concurrent calls")
    func beganEndedPerCall() async throws {
        let changes = Locked<[(NetworkActivityPlugin.Change, String)]>([])
        let activity = NetworkActivityPlugin { change, target in changes.withLock { $0.append((change, target.path)) } }
        let flaky = Counter()
        let transport = StubTransport(
            behavior: .custom { request in
                flaky.increment() == 1 ? Response(statusCode: 503, request: request) : Response(statusCode: 200, request: request)
            })
        let provider = Provider<TestTarget>(transport: transport, plugins: [activity, RetryPlugin(maxRetries: 2, baseDelay: .zero)])
        _ = try await provider.request(TestTarget(path: "/retried"))
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<10 { group.addTask { _ = try? await provider.request(TestTarget(path: "/c\(index)")) } }
        }
        let failing = Provider<TestTarget>(transport: StubTransport(), plugins: [activity])
        _ = try? await failing.request(TestTarget(path: "/fails", sampleResponse: .failure(.timedOut)))
        let all = changes.withLock { $0 }
        #expect(all.filter { $0.0 == .began }.count == 12)
        #expect(all.filter { $0.0 == .ended }.count == 12)
        #expect(all.filter { $0.1 == "/retried" }.map(\.0) == [.began, .ended])
        #expect(all.filter { $0.1 == "/fails" }.map(\.0) == [.began, .ended])
    }
}
