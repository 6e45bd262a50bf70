import Foundation

/// The demo's scratch folder (`netkit-demo-<pid>` in the temporary directory): the HAR file, the
/// download, the local httpbin's log.
struct WorkDirectory {
    /// The folder.
    let url: URL

    /// Creates the folder.
    static func create() throws -> WorkDirectory {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("netkit-demo-\(ProcessInfo.processInfo.processIdentifier)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return WorkDirectory(url: url)
    }

    /// Removes the folder, or says where it is when `keep` is set.
    func finish(keep: Bool) {
        if keep {
            print("NetDemo: kept its files in \(url.path) (--keep-files)")
        } else {
            try? FileManager.default.removeItem(at: url)
        }
    }
}
