// Records with ReplayTransport and replays the recording, as the guide "Recording and replaying
// traffic" and the article "Testing your API client" describe.
import Foundation
import NetCore
import NetPlugins
import Testing

@Suite("README: record and replay")
struct ReplayExample {
    @Test func recordOnceThenReplayWithoutANetwork() async throws {
        let fixture = temporaryDirectory().appendingPathComponent("user.har")
        let liveTransport = HTTPBinStub.transport  // README: DefaultTransport.shared (the real network)

        // Record: requests missing from the file go to the network and are appended, redacted.
        let recording = try ReplayTransport(har: fixture, mode: .recordWhenMissing(transport: liveTransport, to: fixture))
        let recorder = Provider<HTTPBin>(transport: recording)
        let live = try await recorder.request(.get(["q": "swift"]), as: [String: String].self, atKeyPath: "args")

        // Replay: the same requests are answered from the file; a missing one fails clearly.
        let replay = Provider<HTTPBin>(transport: try ReplayTransport(har: fixture))
        let args = try await replay.request(.get(["q": "swift"]), as: [String: String].self, atKeyPath: "args")
        #expect(args == live)
        await #expect(throws: NetworkError.self) { _ = try await replay.request(.status(418)) }
    }
}

extension ReplayExample {
    /// The README block, compiled (the test above records from a stub instead of the network).
    static func readmeReplay(fixture: URL) throws -> (ReplayTransport, Provider<HTTPBin>) {
        // Record: requests missing from the file go to the network and are appended, redacted.
        let recording = try ReplayTransport(har: fixture, mode: .recordWhenMissing(transport: DefaultTransport.shared, to: fixture))
        // Replay: the same requests are answered from the file; a missing one fails naming the closest recording.
        let replay = Provider<HTTPBin>(transport: try ReplayTransport(har: fixture))
        return (recording, replay)
    }
}
