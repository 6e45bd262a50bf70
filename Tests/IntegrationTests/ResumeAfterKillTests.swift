import Foundation
import NetTestSupport
import NetCore
import Testing

/// A downloader that dies mid-write (its process killed, its connection cut) leaves a partial file;
/// the next process resumes it to exactly the source's bytes. CurlTransport resumes with `Range`;
/// URLSession does not resume, so over it the next try simply downloads the whole file correctly.
///
/// NetCurlTests covers the transport's resume mechanics (Range, 206, 416, ignored ranges, a
/// cancel from the progress callback). Here the point is the process boundary: nothing survives
/// from the first attempt but the files on disk (a new provider and transport resume), and a
/// partial file written by a process that never ran its cleanup is picked up as it is.
@Suite(.liveServers, .serialized)
struct ResumeAfterKillTests {
    static let size = 4 << 20

    struct RangeTarget: TargetType {
        var destination: URL
        /// Closes the connection after this many body bytes (the fault server's `cut`).
        var cut: Int?

        var baseURL: URL { TestServers.fault ?? URL(string: "http://127.0.0.1:9")! }
        var path: String { "/range/\(ResumeAfterKillTests.size)" }
        var method: HTTPMethod { .get }
        var timeout: Duration? { .seconds(20) }
        var content: RequestContent {
            let download = RequestContent.download(to: destination, resumable: true)
            return cut.map { download.addingQuery(["cut": $0]) } ?? download
        }
    }

    /// The SHA-256 of the fault server's `/range/<size>` bytes.
    static func sourceHash() throws -> String {
        let folder = try TemporaryFiles.directory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = folder.appendingPathComponent("source.bin")
        try rangeBytes(count: size).write(to: source)
        return try sha256Hex(ofFile: source)
    }

    /// One "process": a provider and transport that exist only for this request.
    static func download(_ kind: TransportKind, _ target: RangeTarget) async -> Result<Response, NetworkError> {
        do {
            return .success(try await Provider<RangeTarget>(transport: kind.make()).request(target))
        } catch {
            return .failure(error)
        }
    }

    @Test("A download cut mid-write resumes in a new transport to the source's SHA-256", arguments: TransportKind.allCases)
    func cutDownloadResumes(kind: TransportKind) async throws {
        _ = try TestServers.require("NETKIT_FAULT_URL")
        let folder = try TemporaryFiles.directory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let destination = DownloadDestination(url: folder.appendingPathComponent("big.bin"), resumable: true)
        let cut = 1_500_000

        let first = await Self.download(kind, RangeTarget(destination: destination.url, cut: cut))
        switch first {
        case .failure(.truncatedResponse), .failure(.connectionLost): break
        default: Issue.record("the cut download ended with \(first)")
        }
        #expect(!FileManager.default.fileExists(atPath: destination.url.path), "a cut download never lands at its destination")
        if kind == .curl {
            #expect(folderContents(folder) == [destination.partialFileURL.lastPathComponent])
            #expect(try Data(contentsOf: destination.partialFileURL) == rangeBytes(count: cut))
        }

        let second = try await Self.download(kind, RangeTarget(destination: destination.url)).get()
        #expect(second.statusCode == (kind == .curl ? 206 : 200), "curl resumes with Range; URLSession starts over")
        #expect(second.fileURL == destination.url)
        #expect(try sha256Hex(ofFile: destination.url) == Self.sourceHash())
        #expect(folderContents(folder) == ["big.bin"], "no partial or temporary file is left")
    }

    @Test("A partial file left by a killed process is resumed to the source's SHA-256", arguments: TransportKind.allCases)
    func partialFromKilledProcessResumes(kind: TransportKind) async throws {
        _ = try TestServers.require("NETKIT_FAULT_URL")
        let folder = try TemporaryFiles.directory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let destination = DownloadDestination(url: folder.appendingPathComponent("big.bin"), resumable: true)
        // Exactly what a process killed after 1,234,567 bytes leaves: the partial file, no cleanup.
        let written = 1_234_567
        try rangeBytes(count: written).write(to: destination.partialFileURL)

        let response = try await Self.download(kind, RangeTarget(destination: destination.url)).get()
        #expect(response.statusCode == (kind == .curl ? 206 : 200))
        #expect(try sha256Hex(ofFile: destination.url) == Self.sourceHash())
        if kind == .curl {
            #expect(response.metrics?.bytesReceived == Int64(Self.size - written), "only the missing bytes travel")
        }
        #expect(folderContents(folder) == ["big.bin"])
    }
}
