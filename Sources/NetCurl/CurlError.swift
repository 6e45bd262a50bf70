/// A libcurl failure as libcurl reported it: the `CURLcode` number and libcurl's message.
///
/// ``CurlTransport`` turns every libcurl failure into a ``NetworkError`` a person can act on;
/// this value is its ``NetworkError/underlyingError``, for code that needs the exact libcurl code
/// (see libcurl's `libcurl-errors` page).
///
/// ```swift
/// if let curl = error.underlyingError as? CurlError, curl.code == 60 { /* CURLE_PEER_FAILED_VERIFICATION */ }
/// ```
public struct CurlError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The `CURLcode` number (for example 7, `CURLE_COULDNT_CONNECT`).
    public let code: Int
    /// libcurl's message for the failure (its error buffer, or `curl_easy_strerror`).
    public let message: String

    /// Creates the value for a libcurl result code and message.
    package init(code: Int, message: String) {
        self.code = code
        self.message = message
    }

    /// `libcurl error <code>: <message>`.
    public var description: String { "libcurl error \(code): \(message)" }
}
