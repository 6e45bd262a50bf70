#if canImport(FoundationNetworking)
    import NetToolbox
    import FoundationNetworking
#endif
import Foundation
import NetBase

extension Exchange {
    /// Handles a finished download: moves a 2xx body into place (URLSession deletes `location`
    /// when this returns); keeps any other body in memory so it never lands in the destination.
    func finishDownload(location: URL?, response: URLResponse?, error: (any Error)?) {
        // A stopped or completed exchange never claims it: a cancelled caller must never find its
        // destination replaced.
        guard let destination = request.download, case .moveDownload = state.withLock({ $0.machine.downloadFinished() }) else { return }
        guard error == nil, let location, let http = response as? HTTPURLResponse else {
            settleDownload(result(data: Data(), fileURL: nil, response: response, error: error))
            return
        }
        if StatusRules.isSuccess(http.statusCode) {
            let staging = DownloadFiles.temporaryURL(beside: destination.url)
            do {
                // Whatever fails below, the staging file goes: no stray files beside the destination.
                defer { try? FileManager.default.removeItem(at: staging) }
                try FileManager.default.createDirectory(at: staging.deletingLastPathComponent(), withIntermediateDirectories: true)
                try FileManager.default.moveItem(at: location, to: staging)
                try DownloadFiles.moveIntoPlace(staging, to: destination.url)
                // URLSession downloads whole; a partial file another transport left is now stale.
                if destination.resumable { try? FileManager.default.removeItem(at: destination.partialFileURL) }
            } catch {
                settleDownload(.failure(NetworkError.fileSystem(reason: "could not move the download to \(destination.url.path): \(error)", underlying: error)))
                return
            }
            settleDownload(result(data: Data(), fileURL: destination.url, response: response, error: nil))
        } else {
            let body = ((try? FileHandle(forReadingFrom: location).read(upToCount: 1 << 20)) ?? nil) ?? Data()
            settleDownload(result(data: body, fileURL: nil, response: response, error: nil))
        }
    }

    /// The claimed download is settled: the caller gets `result`.
    private func settleDownload(_ result: Result<Response, NetworkError>) {
        handle({ $0.machine.downloadSettled() }) { _ in result }
    }
}
