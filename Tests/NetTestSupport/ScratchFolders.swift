import Foundation

/// Temporary folders for tests, all inside one folder per test process that is removed when the
/// process exits: a run leaves nothing behind in the temporary directory, whichever test made what.
public enum ScratchFolders {
    /// `<temporary directory>/netkit-tests-<pid>`, created on first use and removed at exit.
    public static let root: URL = {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("netkit-tests-\(getpid())")
        try? FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(at: ScratchFolders.root) }
        return root
    }()

    /// A new, empty folder under ``root`` whose name starts with `prefix`.
    public static func make(_ prefix: String = "scratch") -> URL {
        let url = root.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
