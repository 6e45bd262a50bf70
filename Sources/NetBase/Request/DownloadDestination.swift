import Foundation

/// Where and how a download is stored.
package struct DownloadDestination: Sendable, Hashable {
    /// The final file location.
    package var url: URL
    /// Whether an interrupted download continues from a partial file.
    package var resumable: Bool

    /// Creates a destination.
    package init(url: URL, resumable: Bool = false) {
        self.url = url
        self.resumable = resumable
    }

    /// Where a resumable download keeps its partial bytes: beside the destination.
    package var partialFileURL: URL {
        url.deletingLastPathComponent().appendingPathComponent("." + url.lastPathComponent + ".netkit-partial")
    }
}
