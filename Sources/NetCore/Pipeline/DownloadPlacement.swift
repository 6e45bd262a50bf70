import NetBase
import Foundation

/// Moves a download of ``RequestContent/downloadTo(_:)`` from its temporary file to the
/// destination its closure picks from the complete response.
enum DownloadPlacement {
    typealias Destination = @Sendable (Response) -> URL

    /// The closure of the request's content, carried in its context.
    enum Key: RequestContextKey {
        static let defaultValue: Destination? = nil
    }

    /// A fresh temporary file for the body.
    static func temporaryFile() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("netkit-download-\(UUID().uuidString)")
    }

    /// `response` with its file moved to the chosen destination; unchanged for other requests
    /// and for responses without a file (non-2xx bodies stay in `data`).
    static func place(_ response: Response, for request: Request) throws(NetworkError) -> Response {
        guard let destination = request.context[Key.self], let file = response.fileURL else { return response }
        let target = destination(response)
        guard target.isFileURL else {
            try? FileManager.default.removeItem(at: file)
            throw .invalidRequest(
                target: targetDescription(request.target), reason: "the download destination \(target) is not a file URL")
        }
        do {
            try DownloadFiles.moveIntoPlace(file, to: target)
        } catch {
            try? FileManager.default.removeItem(at: file)
            throw .fileSystem(reason: "could not move the download to \(target.path): \(error.localizedDescription)", underlying: error)
        }
        var placed = response
        placed.fileURL = target
        return placed
    }
}
