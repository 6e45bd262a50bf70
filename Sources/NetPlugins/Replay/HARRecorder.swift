import NetToolbox
import Foundation
import NetCore

/// Appends exchanges to a HAR file for ``ReplayMode/recordWhenMissing(transport:to:redaction:)``.
///
/// Entries are built by the same code as ``CapturePlugin/harData()`` (a ``CaptureRecord``
/// redacted into a ``CapturedExchange``, then ``HARDocument``), so they are redacted by the same
/// rules. The file is read, extended and written whole, atomically (a temporary file renamed over
/// it), under a lock, so concurrent recordings never lose each other's entries. Fields of an
/// existing file that NetKit does not know (a browser's `pages`, `_initiator`, …) are kept.
final class HARRecorder: Sendable {
    let file: URL
    let redaction: Redaction
    private let writing = Locked(())

    init(file: URL, redaction: Redaction) {
        self.file = file
        self.redaction = redaction
    }

    /// Records `response` to `request` and returns the entry as a replay would read it.
    func append(_ request: Request, response: Response, startDate: Date, duration: Duration) throws(NetworkError) -> RecordedExchange {
        var kept = CapturedResponse(response)
        if kept.data.isEmpty, let downloaded = response.fileURL, let data = try? Data(contentsOf: downloaded, options: .mappedIfSafe) {
            kept.data = data
        }
        let record = CaptureRecord(
            request: request, response: kept, error: nil, startDate: response.metrics?.startDate ?? startDate,
            duration: response.metrics?.duration ?? duration, bytes: 0, bodiesOmitted: false)
        let document = HARDocument(exchanges: [record.redacted(with: redaction)])
        let single = try document.encoded()
        guard let entry = Self.entries(of: try Self.object(single, name: "the new entry")).first else {
            throw .encodingFailed(target: "HAR recording", reason: "the new entry was not encoded")
        }
        let appended: Result<Int, NetworkError> = writing.withLock { _ in
            Result { () throws(NetworkError) -> Int in
                var document = try existingDocument()
                var log = document["log"] as? [String: Any] ?? [:]
                var entries = log["entries"] as? [Any] ?? []
                entries.append(entry)
                log["entries"] = entries
                document["log"] = log
                try write(document)
                return entries.count - 1
            }
        }
        let position = try appended.get()
        guard let exchange = try HARReader.exchanges(in: document, name: file.path, firstIndex: position, data: single).first else {
            throw .encodingFailed(target: "HAR recording", reason: "the new entry could not be read back")
        }
        return exchange
    }

    /// The file's JSON, or a new empty HAR 1.2 document when there is no file yet.
    private func existingDocument() throws(NetworkError) -> [String: Any] {
        guard FileManager.default.fileExists(atPath: file.path) else {
            return try Self.object(try HARDocument(exchanges: []).encoded(), name: "a new HAR document")
        }
        let data: Data
        do {
            data = try Data(contentsOf: file)
        } catch {
            throw .fileSystem(reason: "could not read the HAR file \(file.path) to append to it: \(error.localizedDescription)", underlying: error)
        }
        let document = try Self.object(data, name: file.path)
        guard (document["log"] as? [String: Any])?["entries"] is [Any] else {
            throw .decodingFailed(
                type: "HAR 1.2 archive \(file.path)", keyPath: "log.entries",
                reason: "missing, so nothing can be appended", bodyExcerpt: "(not shown)")
        }
        return document
    }

    private func write(_ document: [String: Any]) throws(NetworkError) {
        do {
            let data = try JSONSerialization.data(withJSONObject: document, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: file, options: .atomic)
        } catch {
            throw .fileSystem(reason: "could not write the HAR file \(file.path): \(error.localizedDescription)", underlying: error)
        }
    }

    private static func object(_ data: Data, name: String) throws(NetworkError) -> [String: Any] {
        guard let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
            throw .decodingFailed(
                type: "HAR 1.2 archive \(name)", keyPath: nil, reason: "not a JSON object",
                bodyExcerpt: "(not shown)")
        }
        return object
    }

    private static func entries(of document: [String: Any]) -> [Any] {
        (document["log"] as? [String: Any])?["entries"] as? [Any] ?? []
    }
}
