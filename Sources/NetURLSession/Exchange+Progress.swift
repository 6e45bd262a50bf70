#if canImport(FoundationNetworking)
    import NetTransportSupport
    import FoundationNetworking
#endif
import Foundation
import NetBase

/// Progress reports from the delegate's byte counts.
extension Exchange {
    /// Reports upload and download progress from the delegate's byte counts (the task's own
    /// counters stay 0 on Linux).
    func reportProgress() {
        guard let progress else { return }
        let (uploaded, uploadTotal, received, downloadTotal, task) = state.withLock {
            ($0.uploaded, $0.uploadTotal, Int64($0.machine.receivedBytes), $0.downloadTotal, $0.machine.task)
        }
        if uploaded > 0 {
            progress(TransferProgress(direction: .upload, completedBytes: uploaded, totalBytes: uploadTotal))
        }
        // Downloads to disk are counted by URLSession itself (no data callbacks for them).
        let downloaded = request.download == nil ? received : task?.countOfBytesReceived ?? 0
        if downloaded > 0 {
            progress(TransferProgress(direction: .download, completedBytes: downloaded, totalBytes: downloadTotal))
        }
    }

    /// The last progress events: completed equals total in each direction that moved bytes.
    func reportFinalProgress(_ response: Response) {
        guard let progress else { return }
        CapabilityCheck.finalEvents(
            sent: request.body.contentLength ?? 0, received: response.metrics?.bytesReceived ?? Int64(response.data.count), to: progress)
    }
}
