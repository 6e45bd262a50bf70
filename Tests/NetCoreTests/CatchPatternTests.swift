import Foundation
import NetCore
import NetTestSupport
import Testing

/// A user's typed `catch` clause that binds a case's `Response`, in a concrete (non-generic)
/// type: the shape Swift 6.3's ownership verifier crashed on when `NetworkError`'s
/// Response-carrying cases were `indirect`, or when `Response` kept its request in a class box.
/// This file compiling is half of the test.
@Suite("Catch patterns on NetworkError")
struct CatchPatternTests {
    struct Client: Sendable {
        let provider: Provider<TestTarget>

        func status(streamed: Bool) async throws -> Int {
            let cleanup = FileManager.default
            defer { _ = cleanup.temporaryDirectory }
            let target = TestTarget(sampleResponse: SampleResponse(statusCode: 404))
            if streamed {
                let stream = provider.stream(target)
                let head: Response
                do {
                    head = try await stream.head
                } catch .unacceptableStatus(let refused) {
                    return refused.statusCode
                }
                return head.statusCode
            }
            let response: Response
            do {
                response = try await provider.request(target)
            } catch .unacceptableStatus(let refused) {
                response = refused
            }
            return response.statusCode
        }

        /// How `statusAndBody` reads the answer.
        enum Mode { case whole, streamed }

        /// The shape of `NetKitTransport.send` (NetOpenAPI), the code whose compile crashed with a
        /// loadable `NetworkError` (see `Response`'s `addressOnlyMarker`): the refused response used
        /// several times in the clause, in a switch, after a `defer`. This copy compiled even with
        /// the marker made loadable; the trait build of NetOpenAPI in CI is what catches the crash.
        func statusAndBody(_ mode: Mode) async throws -> (Head, Body?) {
            let spool = try await Spool.make()
            defer { spool.remove() }
            let target = TestTarget(sampleResponse: SampleResponse(statusCode: 404, data: Data("gone".utf8)))
            switch mode {
            case .whole:
                let response: Response
                do {
                    response = try await provider.request(target)
                } catch .unacceptableStatus(let refused) {
                    response = refused
                }
                return (Head(response), Self.hasBody(response) ? Body(response.data) : nil)
            case .streamed:
                let stream = provider.stream(target)
                let head: Response
                do {
                    head = try await stream.head
                } catch .unacceptableStatus(let refused) {
                    return (Head(refused), Self.hasBody(refused) ? Body(refused.data) : nil)
                }
                return (Head(head), nil)
            }
        }

        static func hasBody(_ response: Response) -> Bool { !response.data.isEmpty }
    }

    /// A request body spooled before the call (made by a throwing call, removed by a `defer`).
    struct Spool {
        static func make() async throws -> Spool { Spool() }
        func remove() {}
    }

    /// A response's head, as a client library would copy it out.
    struct Head {
        let status: Int
        init(_ response: Response) { status = response.statusCode }
    }

    /// A body a client library would wrap.
    final class Body {
        let data: Data
        init(_ data: Data) { self.data = data }
    }

    @Test("A catch clause binding the refused response of a 404 recovers it, whole and streamed")
    func catchClauseBindsTheRefusedResponse() async throws {
        let client = Client(provider: Provider<TestTarget>(transport: StubTransport()))
        #expect(try await client.status(streamed: false) == 404)
        #expect(try await client.status(streamed: true) == 404)
    }

    @Test("A catch clause using the refused response twice gets its status and body")
    func catchClauseUsesTheRefusedResponseTwice() async throws {
        let client = Client(provider: Provider<TestTarget>(transport: StubTransport()))
        for mode in [Client.Mode.whole, .streamed] {
            let (head, body) = try await client.statusAndBody(mode)
            #expect(head.status == 404)
            #expect(body?.data == Data("gone".utf8))
        }
    }
}
