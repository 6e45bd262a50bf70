import Foundation
import NetCore
import NetPlugins
import Testing
import NetTestSupport

/// Endpoints that each choose how the token is sent.
enum SchemeTarget: TargetType, AccessTokenAuthorizable {
    case bearer, basic, token, bare, anonymous

    var baseURL: URL { URL(string: "https://api.example.com")! }
    var path: String { "/\(self)" }
    var method: HTTPMethod { .get }
    var content: RequestContent { .plain }
    var authorizationType: AuthorizationType? {
        switch self {
        case .bearer: .bearer
        case .basic: .basic
        case .token: .custom("Token")
        case .bare: .custom("")
        case .anonymous: nil
        }
    }
}

@Suite("AuthPlugin without refresh, and AccessTokenAuthorizable")
struct AccessTokenAuthorizableTests {
    @Test func aStaticTokenIsFetchedOnceAndSentAsBearer() async throws {
        let fetches = Counter()
        let auth = AuthPlugin(token: {
            fetches.increment()
            return "abc"
        })
        let provider = Provider<TestTarget>(transport: StubTransport(), plugins: [auth])
        let first = try await provider.request(TestTarget())
        let second = try await provider.request(TestTarget())
        #expect(first.request.headers["Authorization"] == "Bearer abc")
        #expect(second.request.headers["Authorization"] == "Bearer abc")
        #expect(fetches.count == 1)
        #expect(auth.currentToken == "abc")
    }

    @Test func withoutRefreshA401EndsTheCallWithoutARetry() async throws {
        let attempts = Counter()
        let transport = stub { request in
            attempts.increment()
            return Response(statusCode: 401, request: request)
        }
        let auth = AuthPlugin(token: { "abc" })
        let provider = Provider<TestTarget>(transport: transport, plugins: [auth], configuration: ProviderConfiguration(maxAttempts: 10))
        await #expect {
            _ = try await provider.request(TestTarget())
        } throws: { error in
            guard case .unacceptableStatus(let response)? = error as? NetworkError else { return false }
            return response.statusCode == 401
        }
        #expect(attempts.count == 1)
        #expect(auth.refreshCount == 0)
        #expect(auth.currentToken == "abc")

        // A 401 the target's validation accepts is returned as it is, also without a retry.
        var accepting = TestTarget()
        accepting.validation = .none
        let response = try await provider.request(accepting)
        #expect(response.statusCode == 401)
        #expect(response.request.attempt == 1)
        #expect(attempts.count == 2)
    }

    @Test func eachTargetChoosesItsScheme() async throws {
        let fetches = Counter()
        let auth = AuthPlugin(token: {
            fetches.increment()
            return "abc"
        })
        let provider = Provider<SchemeTarget>(transport: StubTransport(), plugins: [auth])
        #expect(try await provider.request(.anonymous).request.headers["Authorization"] == nil)
        // A target that wants no token does not even ask for one.
        #expect(fetches.count == 0)
        #expect(try await provider.request(.bearer).request.headers["Authorization"] == "Bearer abc")
        #expect(try await provider.request(.basic).request.headers["Authorization"] == "Basic abc")
        #expect(try await provider.request(.token).request.headers["Authorization"] == "Token abc")
        #expect(try await provider.request(.bare).request.headers["Authorization"] == "abc")
        #expect(fetches.count == 1)
    }

    @Test func aTargetThatDoesNotAdoptTheProtocolGetsThePluginsScheme() async throws {
        let auth = AuthPlugin(header: "X-Auth", scheme: "JWT", token: { "abc" })
        let response = try await Provider<TestTarget>(transport: StubTransport(), plugins: [auth]).request(TestTarget())
        #expect(response.request.headers["X-Auth"] == "JWT abc")
        #expect(response.request.headers["Authorization"] == nil)
    }

    @Test func aWrappedTargetStillChoosesItsScheme() async throws {
        let auth = AuthPlugin(scheme: "JWT", token: { "abc" }, refresh: { "new" })
        let provider = Provider<AnyTarget>(transport: StubTransport(), plugins: [auth])
        #expect(try await provider.request(AnyTarget(SchemeTarget.basic)).request.headers["Authorization"] == "Basic abc")
        #expect(try await provider.request(AnyTarget(SchemeTarget.token)).request.headers["Authorization"] == "Token abc")
        #expect(try await provider.request(AnyTarget(SchemeTarget.anonymous)).request.headers["Authorization"] == nil)
    }

    @Test func asInMoyaAMultiTargetSendsNoTokenToAWrappedTargetThatDoesNotAdoptAccessTokenAuthorizable() async throws {
        let fetches = Counter()
        let auth = AuthPlugin(token: {
            fetches.increment()
            return "abc"
        })
        let provider = Provider<AnyTarget>(transport: StubTransport(), plugins: [auth])
        // Another API's endpoint in the same provider: the token must not leak to it.
        let foreign = try await provider.request(AnyTarget(TestTarget()))
        #expect(foreign.request.headers["Authorization"] == nil)
        #expect(fetches.count == 0)
        #expect(try await provider.request(AnyTarget(SchemeTarget.bearer)).request.headers["Authorization"] == "Bearer abc")
    }

    @Test func asInMoyaAMultiTargetForwardsTheWrappedAuthorizationType() {
        #expect(AnyTarget(SchemeTarget.basic).authorizationType == .basic)
        #expect(AnyTarget(SchemeTarget.token).authorizationType == .custom("Token"))
        #expect(AnyTarget(SchemeTarget.anonymous).authorizationType == nil)
        #expect(AnyTarget(TestTarget()).authorizationType == nil)
        let erased: any TargetType = AnyTarget(SchemeTarget.bearer)
        #expect((erased as? any AccessTokenAuthorizable)?.authorizationType == .bearer)
    }

    @Test func asInMoyaATargetWhoseAuthorizationTypeIsNilGetsNoTokenButOneThatDoesNotAdoptTheProtocolKeepsThePluginsScheme() async throws {
        let auth = AuthPlugin(token: { "abc" })
        let authorizable = Provider<SchemeTarget>(transport: StubTransport(), plugins: [auth])
        #expect(try await authorizable.request(.anonymous).request.headers["Authorization"] == nil)
        // NetKit's difference, written in "Coming from Moya": one API, one token.
        let plain = Provider<TestTarget>(transport: StubTransport(), plugins: [auth])
        #expect(try await plain.request(TestTarget()).request.headers["Authorization"] == "Bearer abc")
        let limited = Provider<TestTarget>(
            transport: StubTransport(), plugins: [AuthPlugin(token: { "abc" }, appliesTo: { $0.url.path != "/public" })])
        #expect(try await limited.request(TestTarget(path: "/public")).request.headers["Authorization"] == nil)
    }

    @Test func aTargetWithoutATokenIsNeverRefreshed() async throws {
        let refreshes = Counter()
        let auth = AuthPlugin(
            token: { "abc" },
            refresh: {
                refreshes.increment()
                return "new"
            })
        let transport = stub { request in Response(statusCode: 401, request: request) }
        await #expect(throws: NetworkError.self) {
            _ = try await Provider<SchemeTarget>(transport: transport, plugins: [auth]).request(.anonymous)
        }
        #expect(refreshes.count == 0)
    }

    @Test func authorizationTypesNameTheirSchemeWord() {
        #expect(AuthorizationType.bearer.value == "Bearer")
        #expect(AuthorizationType.basic.value == "Basic")
        #expect(AuthorizationType.custom("Token").value == "Token")
    }
}
