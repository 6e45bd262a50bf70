import Foundation
import NetCore
import NetPlugins
import Testing
import NetTestSupport

/// CredentialsPlugin answers httpbin's Basic and Digest challenges on both transports.
@Suite(.liveServers, .serialized)
struct CredentialsLiveTests {
    static let paths = [
        "/basic-auth/user/passwd", "/digest-auth/auth/user/passwd/MD5", "/digest-auth/auth/user/passwd/SHA-256",
    ]

    @Test("Basic and Digest challenges are answered, and as in Moya the credential is asked for once per call", arguments: TransportKind.allCases, paths)
    func answersChallenges(kind: TransportKind, path: String) async throws {
        let httpbin = try TestServers.require("NETKIT_HTTPBIN_URL")
        let asked = Counter()
        let attempts = AttemptCounter()
        let credentials = CredentialsPlugin { _ in
            asked.increment()
            return .init(user: "user", password: "passwd")
        }
        let provider = Provider<HostileTarget>(transport: kind.make(), plugins: [credentials, attempts])
        let response = try await provider.request(HostileTarget(path: path, base: httpbin, validation: .successCodes))
        #expect(response.statusCode == 200)
        #expect(try response.decode(Bool.self, atKeyPath: "authenticated"))
        #expect(attempts.attempts == 2)  // the challenge, then its answer
        #expect(asked.count == 1)
    }

    @Test("As in Moya, a nil credential is asked for once and the challenge ends the call", arguments: TransportKind.allCases)
    func nilCredential(kind: TransportKind) async throws {
        let httpbin = try TestServers.require("NETKIT_HTTPBIN_URL")
        let asked = Counter()
        let credentials = CredentialsPlugin { _ in
            asked.increment()
            return nil
        }
        let provider = Provider<HostileTarget>(transport: kind.make(), plugins: [credentials])
        let result = await outcome {
            try await provider.request(HostileTarget(path: "/basic-auth/user/passwd", base: httpbin, validation: .successCodes))
        }
        #expect(result.failure?.statusCode == 401, "\(result)")
        #expect(asked.count == 1)
    }

    @Test("A wrong password ends with the 401", arguments: TransportKind.allCases, paths)
    func wrongPassword(kind: TransportKind, path: String) async throws {
        let httpbin = try TestServers.require("NETKIT_HTTPBIN_URL")
        let attempts = AttemptCounter()
        let provider = Provider<HostileTarget>(
            transport: kind.make(), plugins: [CredentialsPlugin(user: "user", password: "nope"), attempts],
            configuration: .init(maxAttempts: 5))
        let result = await outcome { try await provider.request(HostileTarget(path: path, base: httpbin, validation: .successCodes)) }
        #expect(result.failure?.statusCode == 401, "\(result)")
        #expect(attempts.attempts == 2)
    }
}
