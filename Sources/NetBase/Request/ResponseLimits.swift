import Foundation

/// Size limits a transport enforces while a response arrives.
package struct ResponseLimits: Sendable, Hashable {
    /// The most bytes of an in-memory body, counted after decompression (`nil`: no limit).
    package var maxBodyBytes: Int64?
    /// The most bytes of a body written to a download file (`nil`: no limit).
    package var maxDownloadBytes: Int64?
    /// The most bytes of all header lines together.
    package var maxHeaderBytes: Int

    /// Creates limits; the defaults are ``ProviderConfiguration``'s.
    package init(
        maxBodyBytes: Int64? = ProviderConfiguration.defaultMaxResponseBytes, maxDownloadBytes: Int64? = nil,
        maxHeaderBytes: Int = ProviderConfiguration.defaultMaxHeaderBytes
    ) {
        self.maxBodyBytes = maxBodyBytes
        self.maxDownloadBytes = maxDownloadBytes
        self.maxHeaderBytes = maxHeaderBytes
    }

    /// The body limit for `request`: the download limit when it is written to disk.
    package func bodyLimit(forDownload isDownload: Bool) -> Int64? {
        isDownload ? maxDownloadBytes : maxBodyBytes
    }
}
