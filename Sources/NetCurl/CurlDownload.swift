#if canImport(CCurl)
    import NetToolbox
    import NetBase
    import Foundation

    /// Streams a download's body to disk: a temporary file beside the destination, or for a
    /// resumable download the partial file, which a `206` extends and a `200` restarts. A non-2xx
    /// body stays in memory (up to 1 MiB) and never touches the destination. Loop thread only.
    final class CurlDownload {
        /// What became of the body when the transfer ended.
        enum Outcome {
            /// The complete file is at `url`; `treatedAsSuccess` when a `416` confirmed that the
            /// partial file already held the whole resource.
            case placed(url: URL, treatedAsSuccess: Bool)
            /// A non-2xx answer: its body, the destination untouched.
            case notPlaced(errorBody: Data)
        }

        private enum Mode { case undecided, file, memory }

        let destination: DownloadDestination
        /// The bytes already in the partial file when the request started (resumable only).
        let resumeOffset: Int64
        /// Whether this response extends the partial file (a `206` for our range).
        private(set) var appending = false
        private let fileURL: URL
        private var descriptor: Int32 = -1
        private var mode = Mode.undecided
        private var errorBody = Data()
        private static let errorBodyLimit = 1 << 20

        init(destination: DownloadDestination) throws(NetworkError) {
            self.destination = destination
            let manager = FileManager.default
            do {
                try manager.createDirectory(at: destination.url.deletingLastPathComponent(), withIntermediateDirectories: true)
            } catch {
                throw .fileSystem(reason: "cannot create the folder for \(destination.url.path): \(error.localizedDescription)", underlying: error)
            }
            if destination.resumable {
                fileURL = destination.partialFileURL
                let size = (try? manager.attributesOfItem(atPath: fileURL.path)[.size] as? NSNumber)?.int64Value
                resumeOffset = size ?? 0
            } else {
                fileURL = DownloadFiles.temporaryURL(beside: destination.url)
                resumeOffset = 0
            }
        }

        /// The `CURLOPT_RANGE` value (`N-`) when a partial file can be continued.
        var rangeHeaderValue: String? {
            destination.resumable && resumeOffset > 0 ? "\(resumeOffset)-" : nil
        }

        /// A new status line arrived (an interim or redirect response came before).
        func responseStarted() {
            closeFile()
            mode = .undecided
            appending = false
            errorBody.removeAll()
        }

        /// Stores body bytes of the current response.
        func write(_ bytes: UnsafeRawBufferPointer, status: Int, headerValue: (String) -> String?) throws(NetworkError) {
            if mode == .undecided { try decide(status: status, headerValue: headerValue) }
            switch mode {
            case .file:
                let failure = POSIX.writeAll(descriptor, bytes)
                if failure != 0 { throw .fileSystem(reason: "writing \(fileURL.path) failed: \(String(cString: strerror(failure)))") }
            case .memory:
                let room = Self.errorBodyLimit - errorBody.count
                if room > 0 { errorBody.append(UnsafeBufferPointer(rebasing: bytes.bindMemory(to: UInt8.self).prefix(room))) }
            case .undecided:
                break
            }
        }

        /// Finishes a transfer that libcurl completed without error.
        func complete(status: Int, headerValue: (String) -> String?) throws(NetworkError) -> Outcome {
            if StatusRules.isSuccess(status) {
                if mode == .undecided { try decide(status: status, headerValue: headerValue) }
                closeFile()
                try place(fileURL)
                return .placed(url: destination.url, treatedAsSuccess: false)
            }
            closeFile()
            if status == 416, destination.resumable, resumeOffset > 0 {
                if Self.completeLength(headerValue("Content-Range")) == resumeOffset {
                    try place(fileURL)
                    return .placed(url: destination.url, treatedAsSuccess: true)
                }
                // The partial file does not fit the resource any more: start over next time.
                try? FileManager.default.removeItem(at: fileURL)
            }
            return .notPlaced(errorBody: errorBody)
        }

        /// Cleans up after a failure or cancellation; a resumable download keeps its partial file.
        func abandon() {
            closeFile()
            if !destination.resumable { try? FileManager.default.removeItem(at: fileURL) }
        }

        private func decide(status: Int, headerValue: (String) -> String?) throws(NetworkError) {
            guard StatusRules.isSuccess(status) else {
                mode = .memory
                return
            }
            var flags = O_WRONLY | O_CREAT | O_CLOEXEC
            if status == 206, destination.resumable, resumeOffset > 0 {
                let start = Self.rangeStart(headerValue("Content-Range"))
                guard start == resumeOffset else {
                    throw .invalidResponse(
                        reason:
                            "the server resumed at byte \(start.map(String.init) ?? "?") instead of \(resumeOffset) (Content-Range: \(headerValue("Content-Range") ?? "none"))"
                    )
                }
                flags |= O_APPEND
                appending = true
            } else {
                // A 200 (the server ignored Range) restarts the partial file from zero.
                flags |= O_TRUNC
                appending = false
            }
            descriptor = open(fileURL.path, flags, 0o644)
            guard descriptor >= 0 else {
                throw .fileSystem(reason: "cannot open \(fileURL.path) for writing: \(String(cString: strerror(errno)))")
            }
            mode = .file
        }

        private func place(_ source: URL) throws(NetworkError) {
            do {
                try DownloadFiles.moveIntoPlace(source, to: destination.url)
            } catch {
                throw .fileSystem(reason: "could not move the download to \(destination.url.path): \(error.localizedDescription)", underlying: error)
            }
        }

        private func closeFile() {
            if descriptor >= 0 { close(descriptor) }
            descriptor = -1
        }

        /// `N` in `bytes N-M/T`.
        static func rangeStart(_ value: String?) -> Int64? {
            guard let value, let rest = value.split(separator: " ", maxSplits: 1).last,
                let dash = rest.firstIndex(of: "-")
            else { return nil }
            return Int64(rest[rest.startIndex..<dash])
        }

        /// `T` in `bytes */T` or `bytes N-M/T`.
        static func completeLength(_ value: String?) -> Int64? {
            guard let value, let slash = value.lastIndex(of: "/") else { return nil }
            return Int64(value[value.index(after: slash)...].trimmingCharacters(in: .whitespaces))
        }
    }
#endif
