import NetToolbox
import Foundation
import NetTestSupport
import NetCore
import NetCurl
import Testing

@Suite("CurlTransport downloads to disk")
struct CurlDownloadTests {
    private let size = 4 << 20

    private func folderContents(_ folder: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
    }

    @Test(.liveServers) func aDownloadLandsAtItsDestinationInNewFolders() async throws {
        let fault = try TestServers.require("NETKIT_FAULT_URL")
        let folder = ScratchFolders.make("netcurl")
        defer { try? FileManager.default.removeItem(at: folder) }
        let destination = folder.appendingPathComponent("a/b/file.bin")
        let response = try await CurlTransport().send(
            .to(
                fault.appendingPathComponent("range/\(size)"),
                download: DownloadDestination(url: destination)))
        #expect(response.statusCode == 200)
        #expect(response.fileURL == destination)
        #expect(response.data.isEmpty)
        #expect(try Data(contentsOf: destination) == rangeBytes(count: size))
        #expect(folderContents(destination.deletingLastPathComponent()) == ["file.bin"])
    }

    @Test(.liveServers) func a404LeavesNoDestinationFileAndKeepsTheBody() async throws {
        let fault = try TestServers.require("NETKIT_FAULT_URL")
        let folder = ScratchFolders.make("netcurl")
        defer { try? FileManager.default.removeItem(at: folder) }
        for resumable in [false, true] {
            let destination = folder.appendingPathComponent("missing.bin")
            let response = try await CurlTransport().send(
                .to(
                    fault.appendingPathComponent("status/404"),
                    download: DownloadDestination(url: destination, resumable: resumable)))
            #expect(response.statusCode == 404)
            #expect(response.fileURL == nil)
            #expect(response.string()?.contains("404") == true)
            #expect(folderContents(folder).isEmpty, "resumable \(resumable): \(folderContents(folder))")
        }
    }

    @Test(.liveServers) func aFailedDownloadRemovesItsTemporaryFileAndKeepsTheOldDestination() async throws {
        let fault = try TestServers.require("NETKIT_FAULT_URL")
        let folder = ScratchFolders.make("netcurl")
        defer { try? FileManager.default.removeItem(at: folder) }
        let destination = folder.appendingPathComponent("file.bin")
        try Data("old".utf8).write(to: destination)
        let error = await networkError {
            try await CurlTransport().send(.to(fault.appendingPathComponent("truncated"), download: DownloadDestination(url: destination)))
        }
        guard case .truncatedResponse? = error else { Issue.record("got \(String(describing: error))"); return }
        #expect(folderContents(folder) == ["file.bin"])
        #expect(try Data(contentsOf: destination) == Data("old".utf8))
    }

    @Test(.liveServers) func anInterruptedResumableDownloadContinuesWithRangeToTheExactBytes() async throws {
        let fault = try TestServers.require("NETKIT_FAULT_URL")
        let folder = ScratchFolders.make("netcurl")
        defer { try? FileManager.default.removeItem(at: folder) }
        let destination = DownloadDestination(url: folder.appendingPathComponent("big.bin"), resumable: true)
        let transport = CurlTransport()
        let cut = 1_500_000
        let first = await networkError {
            try await transport.send(.to(URL(string: fault.absoluteString + "/range/\(size)?cut=\(cut)")!, download: destination))
        }
        guard case .truncatedResponse(let expected, let received)? = first else { Issue.record("got \(String(describing: first))"); return }
        #expect(expected == Int64(size))
        #expect(received == Int64(cut))
        #expect(!FileManager.default.fileExists(atPath: destination.url.path))
        #expect(try Data(contentsOf: destination.partialFileURL).count == cut)

        let response = try await transport.send(.to(fault.appendingPathComponent("range/\(size)"), download: destination))
        #expect(response.statusCode == 206)
        #expect(response.fileURL == destination.url)
        let file = try Data(contentsOf: destination.url)
        #expect(file.count == size)
        #expect(file == rangeBytes(count: size))
        #expect(!FileManager.default.fileExists(atPath: destination.partialFileURL.path))
    }

    @Test(.liveServers) func aCancelledResumableDownloadResumesToTheSameHash() async throws {
        let fault = try TestServers.require("NETKIT_FAULT_URL")
        let folder = ScratchFolders.make("netcurl")
        defer { try? FileManager.default.removeItem(at: folder) }
        let destination = DownloadDestination(url: folder.appendingPathComponent("big.bin"), resumable: true)
        let transport = CurlTransport()
        let total = 64 << 20
        let url = fault.appendingPathComponent("range/\(total)")
        // The progress handler runs on the transport's loop thread: it cancels the task itself once
        // 8 MiB arrived, so the download cannot finish first however fast the loopback is.
        let box = Locked<Task<Response, any Error>?>(nil)
        let stored = DispatchSemaphore(value: 0)
        let task = Task {
            try await transport.send(.to(url, download: destination)) { progress in
                guard progress.direction == .download, progress.completedBytes > 8 << 20 else { return }
                stored.wait()
                stored.signal()
                box.withLock { $0?.cancel() }
            }
        }
        box.withLock { $0 = task }
        stored.signal()
        let error = await networkError { try await task.value }
        #expect(error?.isCancellation == true)
        let partial = try FileManager.default.attributesOfItem(atPath: destination.partialFileURL.path)[.size] as? NSNumber
        #expect((partial?.intValue ?? 0) > 0)
        #expect((partial?.intValue ?? total) < total)

        let response = try await transport.send(.to(url, download: destination))
        #expect(response.statusCode == 206)
        let source = folder.appendingPathComponent("source.bin")
        try rangeBytes(count: total).write(to: source)
        #expect(try sha256Hex(ofFile: destination.url) == sha256Hex(ofFile: source))
    }

    @Test(.liveServers) func aServerThatIgnoresRangeRestartsThePartialFileFromZero() async throws {
        let fault = try TestServers.require("NETKIT_FAULT_URL")
        let folder = ScratchFolders.make("netcurl")
        defer { try? FileManager.default.removeItem(at: folder) }
        let destination = DownloadDestination(url: folder.appendingPathComponent("file.bin"), resumable: true)
        // A partial file that does not even match the resource: it must not survive.
        try Data(repeating: 0xFF, count: 100_000).write(to: destination.partialFileURL)
        let response = try await CurlTransport().send(.to(fault.appendingPathComponent("range-ignored/\(size)"), download: destination))
        #expect(response.statusCode == 200)
        #expect(try Data(contentsOf: destination.url) == rangeBytes(count: size))
        #expect(folderContents(folder) == ["file.bin"])
    }

    @Test(.liveServers) func a416WithTheFullLengthMeansThePartialFileIsComplete() async throws {
        let fault = try TestServers.require("NETKIT_FAULT_URL")
        let folder = ScratchFolders.make("netcurl")
        defer { try? FileManager.default.removeItem(at: folder) }
        let destination = DownloadDestination(url: folder.appendingPathComponent("file.bin"), resumable: true)
        try rangeBytes(count: 1000).write(to: destination.partialFileURL)
        let response = try await CurlTransport().send(.to(fault.appendingPathComponent("range/1000"), download: destination))
        #expect(response.statusCode == 200)
        #expect(response.fileURL == destination.url)
        #expect(try Data(contentsOf: destination.url) == rangeBytes(count: 1000))
        #expect(folderContents(folder) == ["file.bin"])
    }

    @Test(.liveServers) func a416ForAPartialFileLongerThanTheResourceDiscardsIt() async throws {
        let fault = try TestServers.require("NETKIT_FAULT_URL")
        let folder = ScratchFolders.make("netcurl")
        defer { try? FileManager.default.removeItem(at: folder) }
        let destination = DownloadDestination(url: folder.appendingPathComponent("file.bin"), resumable: true)
        try rangeBytes(count: 2000).write(to: destination.partialFileURL)
        let response = try await CurlTransport().send(.to(fault.appendingPathComponent("range/1000"), download: destination))
        #expect(response.statusCode == 416)
        #expect(response.fileURL == nil)
        #expect(folderContents(folder).isEmpty)
    }
}
