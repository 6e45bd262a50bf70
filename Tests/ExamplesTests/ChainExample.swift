// Mirrors the README section "Chains (NetChain)"; keep them in sync.
import NetToolbox
import Foundation
import NetChain
import NetCore
import Testing

@Suite("README: Chains (NetChain)")
struct ChainExample {
    /// The README's placeholder API. Registering "ada" gives account "ada-1", whose profile has an
    /// avatar; any other name gives a profile without one. An empty name is rejected (400).
    enum API: TargetType {
        case register(name: String)
        case profile(id: String)
        case avatar

        var baseURL: URL { URL(string: "https://api.example.com")! }
        var path: String {
            switch self {
            case .register: "/register"
            case .profile(let id): "/users/\(id)"
            case .avatar: "/avatar"
            }
        }
        var method: HTTPMethod { if case .register = self { .post } else { .get } }
        var content: RequestContent {
            if case .register(let name) = self { .json(["name": name]) } else { .plain }
        }
        var sampleResponse: SampleResponse {
            switch self {
            case .register(let name) where name.isEmpty: .json(#"{"error": "name required"}"#, statusCode: 400)
            case .register(let name): .json(#"{"id": "\#(name)-1"}"#)
            case .profile(let id): .json(#"{"id": "\#(id)", "hasAvatar": \#(id == "ada-1")}"#)
            case .avatar: SampleResponse(statusCode: 200, data: Data([0x89, 0x50, 0x4E, 0x47]))
            }
        }
    }

    struct Account: Decodable { var id: String }
    struct Profile: Decodable { var id: String; var hasAvatar: Bool }

    let provider = Provider<API>(transport: StubTransport(behavior: .immediate))

    @Test func fluentChainSendsEachStepWithThePreviousResponse() async throws {
        // Fluent: a value, nothing is sent until run()
        let responses = try await Chain(provider, .register(name: "ada"))
            .then { previous in .profile(id: try previous.decode(Account.self).id) }
            // nil ends the chain
            .then { previous in try previous.decode(Profile.self).hasAvatar ? .avatar : nil }
            .run()

        #expect(responses.map(\.request.url.path) == ["/register", "/users/ada-1", "/avatar"])
        #expect(responses.last?.data == Data([0x89, 0x50, 0x4E, 0x47]))
    }

    @Test func aStepReturningNilEndsTheChain() async throws {
        let responses = try await Chain(provider, .register(name: "bob"))
            .then { previous in .profile(id: try previous.decode(Account.self).id) }
            .then { previous in try previous.decode(Profile.self).hasAvatar ? .avatar : nil }
            .run()

        #expect(responses.map(\.request.url.path) == ["/register", "/users/bob-1"])
    }

    @Test func variadicChainRunsTheSameSteps() async throws {
        // Variadic
        let responses = try await Chain.run(provider, .register(name: "ada"), { previous in .profile(id: try previous.decode(Account.self).id) })

        #expect(responses.count == 2)
        #expect(try responses[1].decode(Profile.self).id == "ada-1")
    }

    @Test func aFailureEndsTheChainWithTheStepIndexAndTheResponsesSoFar() async throws {
        let stepRan = Locked(false)
        do {
            try await Chain(provider, .register(name: ""))
                .then { previous in
                    stepRan.update { $0 = true }; return .profile(id: try previous.decode(Account.self).id)
                }
                .run()
            Issue.record("the chain should have failed")
        } catch {
            #expect(error.stepIndex == 0)
            #expect(error.responses.isEmpty)
            #expect(error.networkError.statusCode == 400)
        }
        #expect(stepRan.current == false)
    }
}

extension ChainExample {
    /// The README block, compiled (the tests above run it on stubs).
    static func readmeChain(provider: Provider<API>) async throws -> [Response] {
        // Fluent: a value, nothing is sent until run()
        let responses = try await Chain(provider, .register(name: "ada"))
            .then { previous in .profile(id: try previous.decode(Account.self).id) }
            // nil ends the chain
            .then { previous in try previous.decode(Profile.self).hasAvatar ? .avatar : nil }
            .run()

        // Variadic
        try await Chain.run(provider, .register(name: "ada"), { previous in .profile(id: try previous.decode(Account.self).id) })
        return responses
    }
}
