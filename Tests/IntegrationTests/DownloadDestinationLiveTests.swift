import NetToolbox
import Foundation
import NetCore
import NetTestSupport
import Testing

/// A download whose destination comes from the response lands where the closure says, inside
/// the caller's folder whatever name the server suggests, on both transports.
@Suite(.liveServers, .serialized)
struct DownloadDestinationLiveTests {
    @Test("The server's suggested name is used, made safe", arguments: TransportKind.allCases)
    func suggestedName(kind: TransportKind) async throws {
        let httpbin = try TestServers.require("NETKIT_HTTPBIN_URL")
        let folder = ScratchFolders.make("downloads")
        let target = HostileTarget(
            path: "/response-headers",
            content: .withQuery(
                .downloadTo { folder.appendingPathComponent($0.suggestedFilename ?? "none") },
                ["Content-Disposition": #"attachment; filename="../../escape.json""#]),
            base: httpbin, validation: .successCodes)
        let response = try await Provider<HostileTarget>(transport: kind.make()).request(target)
        let expected = folder.appendingPathComponent("escape.json")
        #expect(response.fileURL?.standardizedFileURL == expected.standardizedFileURL)
        #expect(FileManager.default.fileExists(atPath: expected.path))
        #expect(folderContents(folder) == ["escape.json"])
        #expect(
            !FileManager.default.fileExists(atPath: folder.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("escape.json").path))
    }

    @Test("A non-2xx answer never reaches the destination closure", arguments: TransportKind.allCases)
    func errorNeverPlaced(kind: TransportKind) async throws {
        let httpbin = try TestServers.require("NETKIT_HTTPBIN_URL")
        let asked = Locked(0)
        let folder = ScratchFolders.make("downloads")
        let target = HostileTarget(
            path: "/status/404",
            content: .downloadTo { _ in
                asked.withLock { $0 += 1 }
                return folder.appendingPathComponent("x")
            }, base: httpbin, validation: .successCodes)
        let result = await outcome { try await Provider<HostileTarget>(transport: kind.make()).request(target) }
        #expect(result.failure?.statusCode == 404)
        #expect(asked.withLock { $0 } == 0)
        #expect(folderContents(folder).isEmpty)
    }
}
